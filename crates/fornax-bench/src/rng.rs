//! A tiny deterministic generator (SplitMix64): enough to vary benchmark inputs, with no
//! dependency and the same sequence on every platform.

#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`0` when `n` is `0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// `true` with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items.get(self.below(items.len())).copied().unwrap_or("")
    }

    /// `n` lowercase hexadecimal digits.
    pub fn hex(&mut self, n: usize) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        (0..n).map(|_| DIGITS[self.below(16)] as char).collect()
    }

    /// Words from a small vocabulary, about `len` bytes long.
    pub fn words(&mut self, len: usize) -> String {
        const WORDS: &[&str] = &[
            "the", "cache", "index", "parser", "returns", "rounding", "error", "when", "cursor",
            "is", "stale", "after", "update", "so", "we", "keep", "one", "buffer", "per",
            "session", "and", "skip", "closed", "depots", "before", "planning", "route", "value",
            "field", "check",
        ];
        let mut out = String::with_capacity(len + 12);
        while out.len() < len {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(self.pick(WORDS));
        }
        out
    }

    /// Words, `min` bytes plus up to `spread` more.
    pub fn words_around(&mut self, min: usize, spread: usize) -> String {
        let len = min + self.below(spread);
        self.words(len)
    }

    /// Code-like lines, `min` bytes plus up to `spread` more.
    pub fn code_around(&mut self, min: usize, spread: usize) -> String {
        let len = min + self.below(spread);
        self.code(len)
    }

    /// Code-like lines, about `len` bytes long.
    pub fn code(&mut self, len: usize) -> String {
        const IDENTS: &[&str] = &[
            "total", "cents", "entry", "node", "state", "buf", "idx", "acc", "key", "span",
        ];
        let mut out = String::with_capacity(len + 64);
        while out.len() < len {
            let (a, b, n) = (self.pick(IDENTS), self.pick(IDENTS), self.below(4096));
            let line = match self.below(4) {
                0 => format!("    let {a} = {b}.iter().map(|x| x * {n}).sum::<i64>();\n"),
                1 => format!("    if {a}.len() > {n} {{ return Err(Error::Invalid(\"{b}\")); }}\n"),
                2 => format!("fn {a}_{b}(&mut self, {b}: &str) -> usize {{\n"),
                _ => format!("    // keep {a} before {b} ({n})\n"),
            };
            out.push_str(&line);
        }
        out
    }
}
