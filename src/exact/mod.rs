//! Exact answers (Markov chains, backward induction, enumeration) that simulations are
//! reported beside and tested against.

mod anderson;
pub mod chutes;
pub mod monopoly;
pub mod sweeps;
pub mod twentyone;
