//! SHA-256 digests in hexadecimal, as the summaries files and the manifest record them.

use sha2::{Digest, Sha256};

/// SHA-256 of `text` in hexadecimal.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_the_standard_sha256_in_lower_case_hex() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
