//! Idempotency keys: the front-end sends a fresh one with every forward, the back-end persists a key's forward
//! once. The back-end's window is bounded like the .NET back-end's IdempotencyGuard
//! (src/Ingest.Core/Sinks/IdempotencyGuard.cs): persisted keys are remembered for WINDOW and at most CAPACITY of
//! them, oldest forgotten first; a retry arriving while its first attempt still persists waits for that outcome.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hyper::header::HeaderValue;
use tokio::sync::watch;

/// The header (IETF draft-ietf-httpapi-idempotency-key-header), as the .NET services name it.
pub const HEADER: &str = "idempotency-key";
/// The longest key honoured (the .NET back-end's BackEndHandler.MaxKeyLength); a longer one is no key.
pub const MAX_KEY_LENGTH: usize = 128;
/// Persisted keys remembered at most (the .NET default's ceiling, IdempotencyOptions.MaxSizedCapacity).
pub const CAPACITY: usize = 200_000;
/// How long a persisted key is remembered (IdempotencyOptions.WindowSeconds): longer than any forward timeout.
pub const WINDOW: Duration = Duration::from_secs(300);

/// Makes the front-end's keys: 32 lowercase hex digits, the shape of the .NET front-end's
/// `Guid.NewGuid().ToString("N")`. Each key is a process-wide counter through a bijective mixer keyed by 128 random
/// bits read once at start: unique within the process by construction, unpredictable across processes, and no
/// system call or lock per forward.
pub struct KeySource {
    seed: [u64; 2],
    counter: AtomicU64,
}

/// splitmix64's finaliser: a bijection on u64 that spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl KeySource {
    pub fn new() -> KeySource {
        KeySource { seed: random_seed(), counter: AtomicU64::new(0) }
    }

    /// A fresh key.
    pub fn next(&self) -> HeaderValue {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let high = mix(self.seed[0] ^ n.rotate_left(29));
        let low = mix(self.seed[1].wrapping_add(n)); // distinct for every n
        let mut text = [0u8; 32];
        for (i, byte) in text.iter_mut().enumerate() {
            let word = if i < 16 { high } else { low };
            let nibble = (word >> (60 - 4 * (i % 16))) & 0xf;
            *byte = b"0123456789abcdef"[nibble as usize];
        }
        HeaderValue::from_bytes(&text).expect("hex digits are a valid header value")
    }
}

impl Default for KeySource {
    fn default() -> Self {
        KeySource::new()
    }
}

/// 128 bits from the kernel's random source; std's per-process hash keys (also from the kernel) if it cannot be read.
fn random_seed() -> [u64; 2] {
    let mut bytes = [0u8; 16];
    if std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes)).is_ok() {
        let mut high = [0u8; 8];
        let mut low = [0u8; 8];
        high.copy_from_slice(&bytes[..8]);
        low.copy_from_slice(&bytes[8..]);
        return [u64::from_le_bytes(high), u64::from_le_bytes(low)];
    }
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hash, Hasher};
    let word = |salt: u64| {
        let mut h = RandomState::new().build_hasher();
        (salt, std::process::id(), Instant::now()).hash(&mut h);
        h.finish()
    };
    [word(1), word(2)]
}

/// A key as the back-end remembers it: 32 lowercase hex digits (what our front-ends send) packed in 16 bytes, any
/// other key as its bytes. Equal exactly when the texts are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WindowKey {
    Packed(u128),
    Text(Box<[u8]>),
}

impl WindowKey {
    pub fn from_header(value: &[u8]) -> WindowKey {
        if value.len() == 32 && value.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
            let packed = value.iter().fold(0u128, |n, &c| (n << 4) | u128::from((c as char).to_digit(16).unwrap_or(0)));
            return WindowKey::Packed(packed);
        }
        WindowKey::Text(value.into())
    }
}

struct Window {
    persisted: HashSet<WindowKey>,
    /// Persisted keys oldest first, with when they were persisted.
    order: VecDeque<(WindowKey, Instant)>,
    /// Keys being persisted; the sender exists only once a retry waits for the outcome.
    in_flight: HashMap<WindowKey, Option<watch::Sender<bool>>>,
}

impl Window {
    fn evict(&mut self, now: Instant, capacity: usize, window: Duration) {
        while let Some((key, at)) = self.order.front() {
            if self.order.len() <= capacity && now.saturating_duration_since(*at) <= window {
                break;
            }
            self.persisted.remove(key);
            self.order.pop_front();
        }
    }
}

/// What became of a keyed forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Persisted now.
    Persisted,
    /// Persisted before (or by an attempt that ran at the same time): acknowledged again, not persisted again.
    Duplicate,
}

pub struct IdempotencyGuard {
    window: Mutex<Window>,
    capacity: usize,
    span: Duration,
    duplicates: AtomicU64,
}

enum Admission {
    Persist,
    Duplicate,
    Wait(watch::Receiver<bool>),
}

/// A key being persisted; dropped without `complete` (persisting failed, or the caller went away and its future
/// was dropped), the key is forgotten so a retry can persist it, and whoever waits tries again.
struct InFlight<'g> {
    guard: &'g IdempotencyGuard,
    key: Option<WindowKey>,
}

impl InFlight<'_> {
    fn complete(mut self) {
        let key = self.key.take().expect("completed once");
        let now = Instant::now();
        let waiter = {
            let mut w = self.guard.lock();
            let waiter = w.in_flight.remove(&key).flatten();
            w.persisted.insert(key.clone());
            w.order.push_back((key, now));
            w.evict(now, self.guard.capacity, self.guard.span);
            waiter
        };
        if let Some(tx) = waiter {
            let _ = tx.send(true);
        }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.guard.lock().in_flight.remove(&key); // dropping a sender wakes its waiters
        }
    }
}

impl IdempotencyGuard {
    pub fn new(capacity: usize, window: Duration) -> IdempotencyGuard {
        IdempotencyGuard {
            window: Mutex::new(Window { persisted: HashSet::new(), order: VecDeque::new(), in_flight: HashMap::new() }),
            capacity,
            span: window,
            duplicates: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Window> {
        // A panic while holding the lock leaves consistent sets (every step is one collection call): go on.
        self.window.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Forwards acknowledged again without being persisted again.
    pub fn duplicates(&self) -> u64 {
        self.duplicates.load(Ordering::Relaxed)
    }

    /// Persisted keys remembered now.
    pub fn remembered(&self) -> usize {
        self.lock().order.len()
    }

    /// Runs `persist` unless this key was persisted (or is being persisted) already.
    pub async fn run_once<F, Fut>(&self, key: WindowKey, persist: F) -> Outcome
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = ()>,
    {
        let mut persist = Some(persist);
        loop {
            let admission = {
                let mut w = self.lock();
                w.evict(Instant::now(), self.capacity, self.span);
                if w.persisted.contains(&key) {
                    Admission::Duplicate
                } else if let Some(slot) = w.in_flight.get_mut(&key) {
                    Admission::Wait(slot.get_or_insert_with(|| watch::channel(false).0).subscribe())
                } else {
                    w.in_flight.insert(key.clone(), None);
                    Admission::Persist
                }
            };
            match admission {
                Admission::Duplicate => {
                    self.duplicates.fetch_add(1, Ordering::Relaxed);
                    return Outcome::Duplicate;
                }
                Admission::Wait(mut rx) => {
                    // Another attempt of the same forward got here first: its outcome is ours. If it failed (its
                    // sender dropped), look again: the key may be ours to persist now.
                    if rx.changed().await.is_ok() && *rx.borrow() {
                        self.duplicates.fetch_add(1, Ordering::Relaxed);
                        return Outcome::Duplicate;
                    }
                }
                Admission::Persist => {
                    let running = InFlight { guard: self, key: Some(key.clone()) };
                    (persist.take().expect("persisted once"))().await;
                    running.complete();
                    return Outcome::Persisted;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_32_lowercase_hex_digits_and_never_repeat() {
        let source = KeySource::new();
        let mut seen = HashSet::new();
        for _ in 0..10_000 {
            let key = source.next();
            let bytes = key.as_bytes();
            assert_eq!(bytes.len(), 32);
            assert!(bytes.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')), "{:?}", key);
            assert!(matches!(WindowKey::from_header(bytes), WindowKey::Packed(_)));
            assert!(seen.insert(key));
        }
        assert_ne!(KeySource::new().next(), KeySource::new().next());
    }

    #[test]
    fn only_lowercase_hex_keys_are_packed() {
        assert!(matches!(WindowKey::from_header(&[b'A'; 32]), WindowKey::Text(_)));
        assert!(matches!(WindowKey::from_header(b"abc"), WindowKey::Text(_)));
        assert_ne!(WindowKey::from_header(&[b'a'; 32]), WindowKey::from_header(&[b'A'; 32]));
    }

    fn block_on<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f)
    }

    #[test]
    fn a_repeated_key_is_persisted_once() {
        let guard = IdempotencyGuard::new(10, WINDOW);
        let count = AtomicU64::new(0);
        let key = WindowKey::from_header(b"k1");
        let persist = || async {
            count.fetch_add(1, Ordering::Relaxed);
        };
        assert_eq!(block_on(guard.run_once(key.clone(), persist)), Outcome::Persisted);
        assert_eq!(block_on(guard.run_once(key, persist)), Outcome::Duplicate);
        assert_eq!(block_on(guard.run_once(WindowKey::from_header(b"k2"), persist)), Outcome::Persisted);
        assert_eq!((count.load(Ordering::Relaxed), guard.duplicates()), (2, 1));
    }

    #[test]
    fn the_window_is_bounded_oldest_first() {
        let guard = IdempotencyGuard::new(3, WINDOW);
        for i in 0..5u8 {
            block_on(guard.run_once(WindowKey::from_header(&[i]), || async {}));
        }
        assert_eq!(guard.remembered(), 3);
        // The two oldest are forgotten: persisted again.
        assert_eq!(block_on(guard.run_once(WindowKey::from_header(&[0]), || async {})), Outcome::Persisted);
        assert_eq!(block_on(guard.run_once(WindowKey::from_header(&[4]), || async {})), Outcome::Duplicate);
    }

    #[test]
    fn keys_older_than_the_window_are_forgotten() {
        let guard = IdempotencyGuard::new(10, Duration::from_millis(20));
        let key = WindowKey::from_header(b"old");
        block_on(guard.run_once(key.clone(), || async {}));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(block_on(guard.run_once(key, || async {})), Outcome::Persisted);
    }

    #[test]
    fn a_retry_racing_its_first_attempt_waits_for_it() {
        let guard = IdempotencyGuard::new(10, WINDOW);
        let count = AtomicU64::new(0);
        let key = WindowKey::from_header(b"race");
        let persist = || async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            count.fetch_add(1, Ordering::Relaxed);
        };
        let (a, b) = block_on(async { tokio::join!(guard.run_once(key.clone(), persist), guard.run_once(key.clone(), persist)) });
        assert_eq!((a, b), (Outcome::Persisted, Outcome::Duplicate));
        assert_eq!(count.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn an_abandoned_attempt_leaves_the_key_free() {
        let guard = IdempotencyGuard::new(10, WINDOW);
        let key = WindowKey::from_header(b"gone");
        block_on(async {
            let slow = guard.run_once(key.clone(), || tokio::time::sleep(Duration::from_secs(60)));
            let _ = tokio::time::timeout(Duration::from_millis(10), slow).await; // dropped mid-persist
        });
        assert_eq!(block_on(guard.run_once(key, || async {})), Outcome::Persisted);
    }
}
