//! Non-consecutive: orthogonal neighbours never hold digits that differ by 1. A relation per
//! pair of neighbours, so the solver prunes it by arc consistency.

use std::fmt;

use super::{orthogonal_pairs, Family, Relation};
use crate::engine::model::grid::Shape;
use crate::engine::model::validate::{Unit, UnitKind};

/// One non-consecutive pair ("non-consecutive pair" in messages, `non_consecutive` in the JSON API).
pub const NON_CONSECUTIVE: UnitKind = UnitKind::relation(
    "non_consecutive",
    "non-consecutive pair",
    "non-consecutive pairs",
)
.unnumbered();

/// Orthogonal neighbours differ by more than 1 (and, sharing a row or column, by at least 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NonConsecutive;

impl Family for NonConsecutive {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        let unit = Unit {
            kind: NON_CONSECUTIVE,
            index: 0,
        };
        out.extend(
            orthogonal_pairs(side)
                .map(|cells| Relation::of(unit, cells, side, |a, b| a.abs_diff(b) != 1)),
        );
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((7, "Non-Consecutive"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";non_consecutive");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_may_not_differ_by_one() {
        let mut relations = Vec::new();
        NonConsecutive.relations(Shape::FOUR, &mut relations);
        // 4 rows of 3 pairs and 4 columns of 3 pairs.
        assert_eq!(relations.len(), 24);
        let relation = &relations[0];
        assert!(!relation.allows(2, 3) && !relation.allows(3, 2));
        assert!(relation.allows(1, 3) && relation.allows(4, 1));
    }
}
