//! Derivation of one independent random stream per trial.
//!
//! A trial's stream depends only on (master seed, variant stream, trial index), mixed through
//! SplitMix64 and fed to `Xoshiro256PlusPlus::seed_from_u64` (which applies SplitMix64 again to
//! fill its 256-bit state). Thread identity, chunking and timing never enter, so results are
//! bit-identical whatever the thread count or shard split.
//!
//! A variant's stream number comes from its identity ([`variant_stream`]): the game and its
//! canonical parameter values, never its position in the spec, so a variant gives the same
//! numbers in any spec that contains it.

use rand::SeedableRng;
use sha2::{Digest, Sha256};

/// The random number generator every trial plays with.
pub type TrialRng = rand_xoshiro::Xoshiro256PlusPlus;

/// One step of SplitMix64: a bijective, well-mixing function of a 64-bit value.
pub fn splitmix64(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream number of a variant: the first 8 bytes (big-endian) of the SHA-256 of its
/// identity text, `game` then the canonical `name=value` lines of its parameters.
pub fn variant_stream(game: &str, canonical_params: &str) -> u64 {
    let digest = Sha256::new()
        .chain_update(game.as_bytes())
        .chain_update(b"\n")
        .chain_update(canonical_params.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The RNG of trial `trial` of the variant with stream number `variant` in an experiment seeded with `seed`.
pub fn trial_rng(seed: u64, variant: u64, trial: u64) -> TrialRng {
    let mixed = splitmix64(splitmix64(splitmix64(seed) ^ variant) ^ trial);
    TrialRng::seed_from_u64(mixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn the_stream_derivation_is_pinned() {
        // A dependency upgrade or a change to the mixing that alters results fails here.
        let mut rng = trial_rng(20261130, 2, 12345);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(first, PINNED);
    }

    #[test]
    fn the_variant_stream_derivation_is_pinned() {
        // Changing how a variant's identity becomes its stream changes every result.
        assert_eq!(
            variant_stream("war", "max_turns=15000\nplacement=random"),
            PINNED_VARIANT
        );
        assert_ne!(
            variant_stream("war", "max_turns=15000\nplacement=random"),
            variant_stream("war", "max_turns=15001\nplacement=random")
        );
    }

    #[test]
    fn neighbouring_trials_and_variants_get_different_streams() {
        let draw = |v, t| trial_rng(1, v, t).next_u64();
        assert_ne!(draw(0, 0), draw(0, 1));
        assert_ne!(draw(0, 0), draw(1, 0));
        assert_ne!(draw(0, 1), draw(1, 0));
    }

    // The first 16 hex digits of `printf "war\nmax_turns=15000\nplacement=random" | sha256sum`.
    const PINNED_VARIANT: u64 = 0x3885_0821_a781_1401;

    const PINNED: [u64; 3] = [
        8_839_674_467_836_406_628,
        16_696_095_866_447_567_831,
        7_405_307_090_775_582_503,
    ];
}
