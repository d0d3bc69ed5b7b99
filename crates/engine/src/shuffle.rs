//! A shuffle that gives exactly what `rand`'s `SliceRandom::shuffle` gives, faster for the
//! short slices games shuffle (a deck of cards).
//!
//! `rand` (0.9) shuffles by Fisher–Yates from the front: position `i` swaps with a uniform index
//! in `0..=i`. It draws one random `u32` below the product `(i+1)(i+2)...(i+k)` for as many
//! consecutive positions as fit in 32 bits, then peels each index off that chunk with a division
//! and a remainder by a divisor that changes every step, which costs two hardware divisions per
//! card. Here every divisor up to [`FAST_LEN`] and every chunk bound are constants computed at
//! compile time, and the division is Lemire's multiply by a precomputed reciprocal. The random
//! draws, their order and the resulting permutation are identical, so results do not change.

use rand::seq::SliceRandom;
use rand::Rng;

/// The longest slice shuffled by the fast path; longer ones go to `rand` itself.
pub const FAST_LEN: usize = 64;

/// Shuffles `items` uniformly, drawing from `rng` exactly as `items.shuffle(rng)` would.
#[inline]
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    let len = items.len();
    if len > FAST_LEN {
        items.shuffle(rng);
        return;
    }
    // Position 0 swaps with itself and draws nothing.
    let mut chunk = 0u32;
    let mut left_in_chunk = 0u8;
    for i in 1..len {
        let choices = i + 1;
        if left_in_chunk == 0 {
            let (bound, count) = CHUNKS[choices];
            chunk = rng.random_range(..bound);
            left_in_chunk = count;
        }
        left_in_chunk -= 1;
        let index = if left_in_chunk == 0 {
            chunk
        } else {
            let (quotient, remainder) = divide(chunk, choices);
            chunk = quotient;
            remainder
        };
        items.swap(i, index as usize);
    }
}

/// `(value / divisor, value % divisor)` for `2 <= divisor <= FAST_LEN` by Lemire's direct
/// computation with a 64-bit reciprocal, exact for every 32-bit value.
#[inline(always)]
fn divide(value: u32, divisor: usize) -> (u32, u32) {
    let reciprocal = RECIPROCALS[divisor];
    let quotient = ((u128::from(reciprocal) * u128::from(value)) >> 64) as u32;
    let fraction = reciprocal.wrapping_mul(u64::from(value));
    let remainder = ((u128::from(fraction) * divisor as u128) >> 64) as u32;
    (quotient, remainder)
}

/// `ceil(2^64 / d)` for each divisor `d` from 2 (entries 0 and 1 are unused).
const RECIPROCALS: [u64; FAST_LEN + 1] = {
    let mut table = [0u64; FAST_LEN + 1];
    let mut d = 2;
    while d <= FAST_LEN {
        table[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    table
};

/// For each first divisor `m`: the product `m(m+1)...(m+k-1)` of the most consecutive divisors
/// that fit in a `u32`, and their count `k` (as `rand` computes it).
const CHUNKS: [(u32, u8); FAST_LEN + 1] = {
    let mut table = [(0u32, 0u8); FAST_LEN + 1];
    let mut m = 2;
    while m <= FAST_LEN {
        let mut product = m as u32;
        let mut next = m as u32 + 1;
        while let Some(larger) = product.checked_mul(next) {
            product = larger;
            next += 1;
        }
        table[m] = (product, (next - m as u32) as u8);
        m += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::trial_rng;
    use rand::RngCore;

    #[test]
    fn shuffles_and_draws_exactly_as_rand_does() {
        for len in [0usize, 1, 2, 3, 7, 13, 16, 26, 52, 53, 64, 65, 100] {
            for trial in 0..20_000 {
                let mut ours: Vec<u16> = (0..len as u16).collect();
                let mut theirs = ours.clone();
                let mut rng_ours = trial_rng(7, len as u64, trial);
                let mut rng_theirs = rng_ours.clone();
                shuffle(&mut ours, &mut rng_ours);
                theirs.shuffle(&mut rng_theirs);
                assert_eq!(ours, theirs, "length {len}, trial {trial}");
                assert_eq!(rng_ours.next_u64(), rng_theirs.next_u64());
            }
        }
    }

    #[test]
    fn divides_exactly_at_the_edges() {
        for divisor in 2..=FAST_LEN {
            for value in [
                0,
                1,
                divisor as u32 - 1,
                divisor as u32,
                u32::MAX - 1,
                u32::MAX,
            ] {
                let expected = (value / divisor as u32, value % divisor as u32);
                assert_eq!(divide(value, divisor), expected, "{value} / {divisor}");
            }
            for step in 0..10_000u64 {
                let value = crate::rng::splitmix64(step) as u32;
                let expected = (value / divisor as u32, value % divisor as u32);
                assert_eq!(divide(value, divisor), expected, "{value} / {divisor}");
            }
        }
    }

    #[test]
    fn chunk_bounds_match_rands_first_ones() {
        // 2 * 3 * ... * 12 = 12! fits in 32 bits, times 13 does not.
        assert_eq!(CHUNKS[2], (479_001_600, 11));
        assert_eq!(CHUNKS[49], (49 * 50 * 51 * 52 * 53, 5));
    }
}
