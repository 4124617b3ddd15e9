use sudoku_service::engine::{Board, Puzzle, Solver};
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut solver = Solver::new();
        let (mut n, mut g1, mut g2) = (0u64, 0u64, 0u64);
        for l in text.lines() {
            let p = Puzzle::new(Board::from_line(l).unwrap()).unwrap();
            g1 += solver.solve(&p).unwrap().stats.guesses;
            g2 += solver.count_solutions(&p, 2).unwrap().stats.guesses;
            n += 1;
        }
        println!(
            "{path}: {n} puzzles, guesses/puzzle one {:.2} unique {:.2}",
            g1 as f64 / n as f64,
            g2 as f64 / n as f64
        );
    }
}
