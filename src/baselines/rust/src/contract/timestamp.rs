//! RFC 3339 timestamps as the contract reads and writes them, held as .NET ticks: 100 ns units since
//! 0001-01-01T00:00:00Z, so both implementations forward the same digits.

/// 100 ns units since 0001-01-01T00:00:00Z, UTC.
pub type Ticks = i64;

pub const TICKS_PER_SECOND: i64 = 10_000_000;
const TICKS_PER_DAY: i64 = 86_400 * TICKS_PER_SECOND;
/// 1970-01-01T00:00:00Z.
const UNIX_EPOCH_TICKS: i64 = 719_162 * TICKS_PER_DAY;
/// 10000-01-01T00:00:00Z: the first instant a .NET DateTime cannot hold.
const END_TICKS: i64 = 3_652_059 * TICKS_PER_DAY;
/// The longest fraction accepted (System.Text.Json's limit); digits beyond the seventh are dropped.
const MAX_FRACTION_DIGITS: usize = 16;
/// The largest UTC offset a .NET DateTimeOffset holds, in minutes.
const MAX_OFFSET_MINUTES: i64 = 14 * 60;

const DAYS_BEFORE_MONTH: [i64; 13] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 0001-01-01 to the date (proleptic Gregorian).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = year - 1;
    let leap_day = if month > 2 && is_leap(year) { 1 } else { 0 };
    y * 365 + y / 4 - y / 100 + y / 400 + DAYS_BEFORE_MONTH[(month - 1) as usize] + leap_day + day - 1
}

/// The date `days` after 0001-01-01: (year, month, day).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let mut n = days;
    let cycles400 = n / 146_097;
    n %= 146_097;
    let cycles100 = (n / 36_524).min(3);
    n -= cycles100 * 36_524;
    let cycles4 = n / 1_461;
    n %= 1_461;
    let years = (n / 365).min(3);
    n -= years * 365;
    let year = cycles400 * 400 + cycles100 * 100 + cycles4 * 4 + years + 1;
    let leap = if is_leap(year) { 1 } else { 0 };
    let mut month = 1;
    while month < 12 {
        let next = DAYS_BEFORE_MONTH[month as usize] + if month >= 2 { leap } else { 0 };
        if n < next {
            break;
        }
        month += 1;
    }
    let before = DAYS_BEFORE_MONTH[(month - 1) as usize] + if month > 2 { leap } else { 0 };
    (year, month, n - before + 1)
}

fn digits(s: &[u8]) -> Option<i64> {
    let mut n = 0i64;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(c - b'0');
    }
    Some(n)
}

/// Reads an RFC 3339 date-time with an offset ("2026-11-22T10:00:00.5+01:00") into UTC ticks, truncated to
/// 100 ns. "T" and "Z" upper case; the offset "Z" or ±hh:mm within ±14:00; seconds to 59; the UTC result within
/// the years 1 to 9999. Anything else is `None`.
pub fn parse(s: &str) -> Option<Ticks> {
    let s = s.as_bytes();
    // yyyy-MM-ddTHH:mm:ss is 19 bytes; the shortest offset ("Z") makes 20.
    if s.len() < 20 || s[4] != b'-' || s[7] != b'-' || s[10] != b'T' || s[13] != b':' || s[16] != b':' {
        return None;
    }
    let year = digits(&s[0..4])?;
    let month = digits(&s[5..7])?;
    let day = digits(&s[8..10])?;
    let hour = digits(&s[11..13])?;
    let minute = digits(&s[14..16])?;
    let second = digits(&s[17..19])?;
    if year < 1 || !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) || hour > 23 || minute > 59 || second > 59
    {
        return None;
    }

    let mut i = 19;
    let mut fraction = 0i64;
    if s[i] == b'.' {
        i += 1;
        let start = i;
        let mut weight = TICKS_PER_SECOND;
        while i < s.len() && s[i].is_ascii_digit() {
            if weight > 1 {
                weight /= 10;
                fraction += i64::from(s[i] - b'0') * weight;
            }
            i += 1;
        }
        let n = i - start;
        if n == 0 || n > MAX_FRACTION_DIGITS {
            return None;
        }
    }

    let offset_minutes = match &s[i..] {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let h = digits(&[*h1, *h2])?;
            let m = digits(&[*m1, *m2])?;
            if m > 59 || h * 60 + m > MAX_OFFSET_MINUTES {
                return None;
            }
            if *sign == b'-' {
                -(h * 60 + m)
            } else {
                h * 60 + m
            }
        }
        _ => return None,
    };

    let local = days_from_civil(year, month, day) * TICKS_PER_DAY
        + (hour * 3600 + minute * 60 + second) * TICKS_PER_SECOND
        + fraction;
    let utc = local - offset_minutes * 60 * TICKS_PER_SECOND;
    if !(0..END_TICKS).contains(&utc) {
        return None;
    }
    Some(utc)
}

/// Appends the date and time "yyyy-MM-ddTHH:mm:ss" of `t`, and its 7-digit fraction.
fn push_parts(out: &mut Vec<u8>, t: Ticks) -> i64 {
    let (year, month, day) = civil_from_days(t / TICKS_PER_DAY);
    let in_day = t % TICKS_PER_DAY;
    let seconds = in_day / TICKS_PER_SECOND;
    let two = |out: &mut Vec<u8>, n: i64, sep: u8| {
        out.push(b'0' + (n / 10) as u8);
        out.push(b'0' + (n % 10) as u8);
        out.push(sep);
    };
    out.push(b'0' + (year / 1000) as u8);
    out.push(b'0' + (year / 100 % 10) as u8);
    two(out, year % 100, b'-');
    two(out, month, b'-');
    two(out, day, b'T');
    two(out, seconds / 3600, b':');
    two(out, seconds / 60 % 60, b':');
    out.push(b'0' + (seconds % 60 / 10) as u8);
    out.push(b'0' + (seconds % 10) as u8);
    in_day % TICKS_PER_SECOND
}

/// Appends `t` as RFC 3339 in UTC with "Z", its fraction to 100 ns without trailing zeros, as .NET writes a UTC
/// DateTime: "2026-11-22T10:00:00.1234567Z", "2026-11-22T10:00:00Z".
pub fn push_rfc3339(out: &mut Vec<u8>, t: Ticks) {
    let mut fraction = push_parts(out, t);
    if fraction != 0 {
        out.push(b'.');
        let mut weight = TICKS_PER_SECOND / 10;
        while fraction != 0 {
            out.push(b'0' + (fraction / weight) as u8);
            fraction %= weight;
            weight /= 10;
        }
    }
    out.push(b'Z');
}

/// `t` with all seven fraction digits, as the .NET status page shows it: "2026-11-22T10:00:00.0000000Z".
pub fn format_round_trip(t: Ticks) -> String {
    let mut out = Vec::with_capacity(28);
    let fraction = push_parts(&mut out, t);
    out.push(b'.');
    let mut weight = TICKS_PER_SECOND / 10;
    while weight != 0 {
        out.push(b'0' + (fraction / weight % 10) as u8);
        weight /= 10;
    }
    out.push(b'Z');
    String::from_utf8(out).expect("ASCII")
}

/// The receive time of a request: now, UTC, in ticks.
pub fn now() -> Ticks {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    UNIX_EPOCH_TICKS + since.as_secs() as i64 * TICKS_PER_SECOND + i64::from(since.subsec_nanos() / 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) -> Option<String> {
        parse(s).map(|t| {
            let mut out = Vec::new();
            push_rfc3339(&mut out, t);
            String::from_utf8(out).unwrap()
        })
    }

    #[test]
    fn reads_rfc3339_with_an_offset_into_utc() {
        let cases = [
            ("2026-11-22T10:00:00Z", "2026-11-22T10:00:00Z"),
            ("2026-11-22T11:00:00+01:00", "2026-11-22T10:00:00Z"),
            ("2026-11-22T10:00:00.5Z", "2026-11-22T10:00:00.5Z"),
            ("2026-11-22T10:00:00.123456789Z", "2026-11-22T10:00:00.1234567Z"),
            ("2026-11-22T10:00:00.1234567890123456Z", "2026-11-22T10:00:00.1234567Z"),
            ("2024-02-29T23:30:00-01:00", "2024-03-01T00:30:00Z"),
            ("0001-01-01T00:00:00.0000001Z", "0001-01-01T00:00:00.0000001Z"),
            ("9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z"),
            ("2000-01-01T00:00:00+14:00", "1999-12-31T10:00:00Z"),
            ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        ];
        for (input, want) in cases {
            assert_eq!(round_trip(input).as_deref(), Some(want), "{}", input);
        }
    }

    #[test]
    fn refuses_anything_else() {
        for input in [
            "yesterday",
            "2026-11-22",
            "2026-11-22T10:00:00",
            "2026-11-22t10:00:00Z",
            "2026-11-22T10:00:00z",
            "2026-11-22 10:00:00Z",
            "2026-11-22T10:00:60Z",
            "2026-11-22T24:00:00Z",
            "2026-02-29T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "0000-01-01T00:00:00Z",
            "2026-11-22T10:00:00.Z",
            "2026-11-22T10:00:00.12345678901234567Z",
            "2026-11-22T10:00:00+14:01",
            "2026-11-22T10:00:00+01:60",
            "2026-11-22T10:00:00+0100",
            "0001-01-01T00:30:00+01:00",
            "9999-12-31T23:00:00-01:00",
            "2026-11-22T10:00:00Z ",
        ] {
            assert_eq!(parse(input), None, "{}", input);
        }
    }

    #[test]
    fn civil_dates_round_trip_over_the_whole_range() {
        for days in (0..3_652_059).step_by(997).chain([0, 59, 60, 365, 3_652_058]) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{}-{}-{}", y, m, d);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 719_162);
        assert_eq!(days_from_civil(10000, 1, 1), 3_652_059);
    }

    #[test]
    fn the_status_page_shows_seven_digits() {
        assert_eq!(format_round_trip(parse("2026-11-22T10:00:00.5Z").unwrap()), "2026-11-22T10:00:00.5000000Z");
    }
}
