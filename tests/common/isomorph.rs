//! The canonical form of a classic puzzle written the slow, obvious way, sharing no code with
//! the engine's: the tests' oracle for `canonical` and `distinct`, and (through a `#[path]`
//! module) `examples/bank_check.rs`'s for whole bank files.

/// Every order of the 9 lines that keeps bands together (the bands in any order, the lines
/// of each band in any order): 6^4 = 1296.
pub fn line_orders() -> Vec<[usize; 9]> {
    let threes = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut orders = Vec::new();
    for bands in threes {
        for a in threes {
            for b in threes {
                for c in threes {
                    let within = [a, b, c];
                    let mut order = [0; 9];
                    for (slot, band) in bands.into_iter().enumerate() {
                        for (k, line) in within[slot].into_iter().enumerate() {
                            order[slot * 3 + k] = band * 3 + line;
                        }
                    }
                    orders.push(order);
                }
            }
        }
    }
    orders
}

/// The canonical form written the slow, obvious way: every one of the 2 x 1296 x 1296
/// rearrangements, each relabelled in order of first appearance, the smallest image read as
/// digits (empty cells 0) kept. An image is abandoned at its first cell above the best.
pub fn slow_canonical(line: &str) -> String {
    let cells: Vec<usize> = line
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as usize)
        .collect();
    let orders = line_orders();
    let mut best = [u8::MAX; 81];
    for transpose in [false, true] {
        for rows in &orders {
            for cols in &orders {
                let (mut label, mut next, mut below) = ([0u8; 10], 1u8, false);
                for at in 0..81 {
                    let (r, c) = (rows[at / 9], cols[at % 9]);
                    let digit = if transpose {
                        cells[c * 9 + r]
                    } else {
                        cells[r * 9 + c]
                    };
                    let value = if digit == 0 {
                        0
                    } else {
                        if label[digit] == 0 {
                            label[digit] = next;
                            next += 1;
                        }
                        label[digit]
                    };
                    if !below {
                        if value > best[at] {
                            break;
                        }
                        below = value < best[at];
                    }
                    best[at] = value;
                }
            }
        }
    }
    best.iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}
