//! Numbers on the command line read like numbers in a spec: `1_000` (underscores between
//! digits), and for whole numbers also a float literal that is exactly whole (`1e6`, `2.5e6`,
//! `9007199254740993e0`): its digits are read exactly, never rounded through a float.

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

/// A decimal number as a flag gives it, spaces around it and underscores in it dropped
/// (`0.000_1`), or the message that `text` is not a number.
pub fn decimal(text: &str) -> Result<f64, String> {
    text.trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))
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
    Some(match float_value(&digits)? {
        Whole::Exact(n) if negative && n > 0 => Whole::Outside,
        other => other,
    })
}

/// The exact value of the float literal `text` (see [`is_float_literal`]), read digit by digit:
/// `None` when it is not a whole number (`1.5`, `1e-1`), [`Whole::Outside`] when it is too
/// large to hold.
fn float_value(text: &str) -> Option<Whole> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    // An exponent too long for an i32 is as good as infinite either way.
    let exponent = exponent.map_or(0, |e| {
        let e = e.strip_prefix('+').unwrap_or(e);
        e.parse::<i32>().unwrap_or(if e.starts_with('-') {
            i32::MIN
        } else {
            i32::MAX
        })
    });
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let significant = all.trim_start_matches('0');
    if significant.is_empty() {
        return Some(Whole::Exact(0));
    }
    let digits = significant.trim_end_matches('0');
    // The value is `digits` × 10^power, and `digits` ends in a digit other than 0.
    let power =
        i64::from(exponent) - fraction.len() as i64 + (significant.len() - digits.len()) as i64;
    if power < 0 {
        return None;
    }
    if digits.len() as i64 + power > 39 {
        return Some(Whole::Outside);
    }
    let value = digits
        .parse::<u128>()
        .ok()
        .and_then(|n| n.checked_mul(10u128.checked_pow(u32::try_from(power).ok()?)?));
    Some(value.map_or(Whole::Outside, Whole::Exact))
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

    #[test]
    fn float_literals_are_read_exactly_or_refused() {
        let seed = |text: &str| whole::<u64>(0, i64::MAX as u64)(text);
        assert_eq!(seed("9007199254740993e0"), Ok(9_007_199_254_740_993));
        assert_eq!(seed("12345678901234567.0"), Ok(12_345_678_901_234_567));
        assert_eq!(seed("9223372036854775807.000"), Ok(i64::MAX as u64));
        assert_eq!(seed("1.2345e4"), Ok(12_345));
        assert_eq!(seed("100e-2"), Ok(1));
        assert_eq!(seed("0.0e999999999999"), Ok(0));
        assert_eq!(seed("-0.0"), Ok(0));
        for not_whole in [
            "9007199254740993.5",
            "1.23e-1",
            "1e-999999999999",
            "12345.6e0",
        ] {
            let message = seed(not_whole).expect_err(not_whole);
            assert!(message.contains("is not a whole number in"), "{message}");
        }
        for outside in [
            "9223372036854775808.0",
            "1e19",
            "1.5e400",
            "1e999999999999",
            "-1e0",
        ] {
            let message = seed(outside).expect_err(outside);
            assert!(
                message.starts_with(&format!("{outside} is not in 0..=")),
                "{message}"
            );
        }
    }
}
