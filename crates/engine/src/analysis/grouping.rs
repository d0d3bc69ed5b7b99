//! What the report says of `[compare] within`: which variants were compared with which, how
//! many pairs that made, and the Holm family they form.

use super::comparison::ALL_PAIRS_LIMIT;
use super::{Analysis, Pairs};
use crate::params::ParamSet;
use crate::report::{code, Block, Text};

impl<S> Analysis<'_, S> {
    /// Whether the variants were compared only within groups (`[compare] within`).
    pub fn grouped(&self) -> bool {
        self.rows
            .first()
            .is_some_and(|first| !first.variant.compare.is_default())
    }

    /// The paragraph that says how `[compare] within` grouped the comparisons: "Compared
    /// within equal `face_down`: 30 pairs in 2 groups; ..." (nothing when the variants are not
    /// grouped, or the study compares them with tests of its own).
    pub fn grouping_blocks(&self) -> Vec<Block> {
        if !self.grouped() || self.measures.pairs == Pairs::Own {
            return Vec::new();
        }
        let compare = &self.rows[0].variant.compare;
        let params: Vec<&ParamSet> = self.rows.iter().map(|r| &r.variant.params).collect();
        let groups = compare.groups(&params);
        let pairs = match self.common {
            Some(common) => common.summary.pairs().len(),
            None => super::comparison::pairs(self.measures, &self.rows).len(),
        };
        let with_best = self.measures.pairs == Pairs::WithBest;
        let large = groups.iter().any(|g| g.len() > ALL_PAIRS_LIMIT);
        let how = if with_best {
            "each variant is compared with the best of its group".to_string()
        } else if large {
            format!(
                "every pair within a group of up to {ALL_PAIRS_LIMIT} variants; in a larger \
                 group each variant with the best of the group"
            )
        } else {
            "every pair within each group".to_string()
        };
        let best = if with_best || large {
            match self.common {
                Some(_) => {
                    " (the best by a pilot of 1,024 trials per variant on the run's seed, by "
                }
                None => " (the best: the highest ",
            }
        } else {
            ""
        };
        let mut text = Text::new()
            .plain("Compared within equal ")
            .append(Text::join(compare.within.iter().copied(), ", ", code))
            .plain(format!(
                ": {pairs} pairs in {} of variants with the same values; {how}",
                match groups.len() {
                    1 => "1 group".to_string(),
                    n => format!("{n} groups"),
                }
            ));
        if !best.is_empty() {
            text = text.plain(best).code(self.measures.headline).plain(")");
        }
        vec![Block::paragraph(text.plain(". ").code("p_holm").plain(
            format!(
                " is Holm-corrected over those {pairs} pairs in each family; pairs across \
                     groups are not compared."
            ),
        ))]
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Analysis, Kind, Measures, Metric};
    use crate::params::{ParamDef, ParamKind, ParamSet, Params};
    use crate::report::markdown;
    use crate::spec::{Compare, Variant};

    /// A toy game's two parameters: a level, and the side variants are grouped by.
    #[derive(Default, serde::Serialize, serde::Deserialize)]
    struct Two {
        level: i64,
        side: i64,
    }

    impl Params for Two {
        const DECLARED: &'static [ParamDef] = &[
            ParamDef::new("level", ParamKind::Int { min: 0, max: 100 }, "a level"),
            ParamDef::new("side", ParamKind::Int { min: 0, max: 1 }, "a side"),
        ];
    }

    /// Successes out of 100 trials.
    struct Hits(u64);

    #[test]
    fn a_group_of_more_than_twenty_compares_each_with_its_best_and_a_small_one_every_pair() {
        let compare = Compare {
            within: vec!["side"],
        };
        // 25 variants on side 0, 3 on side 1; hits all different (11 is prime to 28).
        let variants: Vec<Variant> = (0..28)
            .map(|i| Variant {
                index: i,
                stream: i as u64,
                name: format!("v{i}"),
                params: ParamSet::from_typed(&Two {
                    level: i as i64,
                    side: i64::from(i >= 25),
                })
                .expect("declared"),
                compare: compare.clone(),
            })
            .collect();
        let hits = |i: usize| 10 + (i as u64 * 11) % 28;
        let summaries: Vec<Hits> = (0..28).map(|i| Hits(hits(i))).collect();
        let rate = Kind::Proportion {
            successes: |s: &Hits| s.0,
            of: |_| 100,
        };
        let measures = Measures::new(
            "games",
            |_| 100,
            "hit_rate",
            vec![Metric::new("hit_rate", "hit rate", rate)],
        );
        let analysis = Analysis::new(&measures, &variants, &summaries);
        let best = (0..25).max_by_key(|&i| hits(i)).expect("a variant");
        let pairs: Vec<(String, String)> = analysis
            .comparisons
            .iter()
            .map(|c| (c.a.clone(), c.b.clone()))
            .collect();
        let mut expected: Vec<(String, String)> = (0..25)
            .filter(|&i| i != best)
            .map(|i| (format!("v{i}"), format!("v{best}")))
            .collect();
        expected.extend(
            [("v25", "v26"), ("v25", "v27"), ("v26", "v27")].map(|(a, b)| (a.into(), b.into())),
        );
        assert_eq!(pairs, expected);
        let text = markdown::render(&analysis.comparisons_blocks());
        assert!(
            text.contains("Compared within equal `side`: 27 pairs in 2 groups"),
            "{text}"
        );
        assert!(
            text.contains("in a larger group each variant with the best"),
            "{text}"
        );
        assert!(!text.contains("With 28 variants"), "{text}");
    }
}
