//! Numbers on the command line read like numbers in a spec: `1_000` (underscores between
//! digits), and for whole numbers also a float literal that is whole (`1e6`, `2.5e6`).

/// Largest number a float literal may stand for: beyond it not every whole number is a float.
const EXACT_LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53

/// A parser for a flag taking a whole number from `min` to `max`, as clap's `value_parser`
/// (clap names the flag in front of its message).
pub fn whole<T>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text| {
        let refuse = |what: String| {
            Err(format!(
                "{what} {min}..={max} (a whole number: digits with '_' between them, like \
                 1_000, or a whole float like 1e6)"
            ))
        };
        match read_whole(text.trim()) {
            Some(Whole::Exact(n)) if (u128::from(min)..=u128::from(max)).contains(&n) => {
                T::try_from(n as u64).or_else(|_| refuse(format!("{text} is not in")))
            }
            Some(_) => refuse(format!("{text} is not in")),
            None => refuse(format!("'{text}' is not a whole number in")),
        }
    }
}

/// A whole number as read.
#[derive(Debug, PartialEq)]
enum Whole {
    /// Its exact value.
    Exact(u128),
    /// Below zero, too large to hold, or too large for a float to stand for exactly.
    Outside,
}

/// Reads `1_000`, `1e6` or `2.5e6`; `None` for anything that is not a whole number.
fn read_whole(text: &str) -> Option<Whole> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = strip_underscores(body)?;
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let value = digits.parse::<u128>().map_or(Whole::Outside, Whole::Exact);
        return Some(match value {
            Whole::Exact(n) if negative && n > 0 => Whole::Outside,
            other => other,
        });
    }
    if !is_float_literal(&digits) {
        return None;
    }
    let value: f64 = digits.parse().ok()?;
    if value.fract() != 0.0 {
        return None;
    }
    Some(if (negative && value > 0.0) || value > EXACT_LIMIT {
        Whole::Outside
    } else {
        Whole::Exact(value as u128)
    })
}

/// `text` without its underscores, if each stands between two digits (as in TOML).
fn strip_underscores(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    for (at, byte) in bytes.iter().enumerate() {
        if *byte == b'_' {
            let digit =
                |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
            if !digit(at.checked_sub(1)) || !digit(Some(at + 1)) {
                return None;
            }
        }
    }
    Some(text.replace('_', ""))
}

/// Digits, an optional fraction and an optional exponent: `2.5e6`, `1E+3`, `10.0`.
fn is_float_literal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<u64, String> {
        whole::<u64>(1, 1_000_000_000_000)(text)
    }

    #[test]
    fn whole_numbers_read_like_spec_numbers() {
        assert_eq!(read("1_000"), Ok(1_000));
        assert_eq!(read("1e6"), Ok(1_000_000));
        assert_eq!(read("2.5e6"), Ok(2_500_000));
        assert_eq!(read("1E3"), Ok(1_000));
        assert_eq!(read("10.0"), Ok(10));
        assert_eq!(read(" 42 "), Ok(42));
        assert_eq!(whole::<u32>(0, 10)("0"), Ok(0));
    }

    #[test]
    fn other_numbers_are_refused_with_the_range() {
        for bad in [
            "1.5", "-1", "1e30", "0", "1__0", "_1", "1_", "1e", "inf", "nan", "", "1e-1", "0x10",
            "1.", ".5",
        ] {
            let message = read(bad).expect_err(bad);
            assert!(
                message.contains(" 1..=1000000000000 (a whole number: digits"),
                "{bad}: {message}"
            );
        }
        assert!(read("-1").unwrap_err().starts_with("-1 is not in 1..="));
        assert!(read("1e30").unwrap_err().starts_with("1e30 is not in 1..="));
        assert!(read("1.5")
            .unwrap_err()
            .starts_with("'1.5' is not a whole number in 1..="));
        assert!(whole::<u32>(1, u64::MAX)("5000000000").is_err());
    }
}
