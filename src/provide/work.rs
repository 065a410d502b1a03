//! A job of lichess's external-engine work broker and the UCI lines it becomes.
//!
//! The broker answers `POST /api/external-engine/work` with `{"id", "work", "engine"}`; `work`
//! is lila-engine's `Work` (its `src/api.rs`, commit 371eae8), already sanitized by the broker
//! for lichess's own requests: `sessionId`, `threads` and `hash` (MiB, at least 1, clamped to
//! the registered caps), one of `movetime` (ms) / `depth` / `nodes`, `multiPv` (0 to 5),
//! `variant` (lichess's names), `initialFen` (X-FEN) and `moves` (UCI, king-takes-rook castles:
//! the engine runs with `UCI_Chess960` true). A private broker may send anything, so
//! [`EngineState::commands`] checks again what it relies on and fenguard's session validates
//! the position as for any GUI.
//!
//! The lines follow lichess's example provider (external-engine `example-provider.py`): a new
//! `sessionId` gives `ucinewgame` and `isready`; `setoption` only for what changed, then
//! `isready`; then `position fen ... moves ...` and `go`.

use serde::Deserialize;

/// A job as the broker hands it out.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Job {
    /// The job id (16 alphanumerics), for `POST /api/external-engine/work/{id}`.
    pub id: String,
    /// What to analyse.
    pub work: Work,
}

/// How long to search: exactly one of lila-engine's `Search` keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Search {
    /// `go movetime N`, milliseconds (0 is sent as 1).
    Movetime(u32),
    /// `go depth N` (0 is sent as 1).
    Depth(u32),
    /// `go nodes N` (0 is sent as 1).
    Nodes(u64),
}

/// The `work` object (camelCase keys as lila-engine writes them).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Work {
    /// The analysis session on the board: a new one starts a new game for the engine.
    pub session_id: String,
    /// Threads asked for.
    pub threads: u32,
    /// Hash asked for, MiB.
    pub hash: u32,
    /// The search limit.
    #[serde(flatten)]
    pub search: Search,
    /// Principal variations asked for, 0 to 5 (0 reads as 1, as lila-engine's `MultiPv`).
    pub multi_pv: u32,
    /// lichess's variant name (`chess`, `crazyhouse`, `3check`, ...; lila-engine's aliases
    /// `standard`, `chess960`, `fromPosition`, `kingOfTheHill`, `racingKings`, `threeCheck`
    /// are read too).
    pub variant: String,
    /// The start position, X-FEN.
    pub initial_fen: String,
    /// The moves from it, UCI in king-takes-rook form.
    pub moves: Vec<String>,
}

/// What the provider advertised when it registered; every job is clamped to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// `maxThreads`.
    pub max_threads: u32,
    /// `maxHash`, MiB.
    pub max_hash_mb: u32,
}

/// Why a job is not sent to the engine (answered without it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    /// `multiPv` above 5, which the broker's grammar refuses (`multipv 6` is a 400).
    #[error("multiPv {0} is above 5")]
    MultiPv(u32),
    /// A variant name lichess does not have, or the engine does not offer.
    #[error("variant {0:?} is not one this engine analyses")]
    Variant(String),
    /// A field that would break the UCI line it goes into (a line break, a space in a move).
    #[error("{0} does not fit on a UCI line")]
    Malformed(&'static str),
}

/// The `UCI_Variant` value of lichess's variant name (Fairy-Stockfish's names), `None` for one
/// lichess does not have. Aliases as lila-engine's `UciVariant`.
pub fn uci_variant(lichess: &str) -> Option<&'static str> {
    Some(match lichess {
        "chess" | "standard" | "chess960" | "fromPosition" => "chess",
        "antichess" => "antichess",
        "atomic" => "atomic",
        "crazyhouse" => "crazyhouse",
        "horde" => "horde",
        "kingofthehill" | "kingOfTheHill" => "kingofthehill",
        "racingkings" | "racingKings" => "racingkings",
        "3check" | "threeCheck" => "3check",
        _ => return None,
    })
}

/// What the engine was last told, so that a job sends only what changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineState {
    session_id: Option<String>,
    threads: Option<u32>,
    hash: Option<u32>,
    multi_pv: Option<u32>,
    variant: Option<&'static str>,
}

impl EngineState {
    /// The GUI lines (no terminators) for `work` on an engine that offers the `UCI_Variant`
    /// values `variants` (empty: chess only, no `UCI_Variant` sent), in order; the state
    /// remembers what they set. Threads and hash are clamped to `caps`.
    ///
    /// ```
    /// use fenguard::provide::work::{Caps, EngineState, Work};
    ///
    /// let work: Work = serde_json::from_str(r#"{"sessionId": "s1", "threads": 64, "hash": 256,
    ///     "depth": 20, "multiPv": 2, "variant": "chess",
    ///     "initialFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ///     "moves": ["e2e4"]}"#).unwrap();
    /// let caps = Caps { max_threads: 4, max_hash_mb: 512 };
    /// let lines = EngineState::default().commands(&work, caps, &[]).unwrap();
    /// assert_eq!(lines, [
    ///     "ucinewgame", "isready",
    ///     "setoption name Threads value 4", "setoption name Hash value 256",
    ///     "setoption name MultiPV value 2", "isready",
    ///     "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4",
    ///     "go depth 20",
    /// ]);
    /// ```
    ///
    /// # Errors
    /// [`WorkError`] for a job the engine must not see; the state is then unchanged.
    pub fn commands(
        &mut self,
        work: &Work,
        caps: Caps,
        variants: &[String],
    ) -> Result<Vec<String>, WorkError> {
        if work.multi_pv > 5 {
            return Err(WorkError::MultiPv(work.multi_pv));
        }
        let variant = uci_variant(&work.variant)
            .filter(|v| *v == "chess" || variants.iter().any(|o| o == v))
            .ok_or_else(|| WorkError::Variant(work.variant.clone()))?;
        let one_line = |text: &str| !text.contains(['\n', '\r', '\0']);
        if !one_line(&work.initial_fen) {
            return Err(WorkError::Malformed("initialFen"));
        }
        if !work
            .moves
            .iter()
            .all(|m| !m.is_empty() && one_line(m) && !m.contains([' ', '\t']))
        {
            return Err(WorkError::Malformed("moves"));
        }
        let mut lines = Vec::new();
        if self.session_id.as_deref() != Some(work.session_id.as_str()) {
            self.session_id = Some(work.session_id.clone());
            lines.extend(["ucinewgame".to_owned(), "isready".to_owned()]);
        }
        let settled = lines.len();
        let threads = work.threads.clamp(1, caps.max_threads.max(1));
        let hash = work.hash.clamp(1, caps.max_hash_mb.max(1));
        let multi_pv = work.multi_pv.max(1);
        set(&mut lines, &mut self.threads, threads, "Threads");
        set(&mut lines, &mut self.hash, hash, "Hash");
        set(&mut lines, &mut self.multi_pv, multi_pv, "MultiPV");
        if !variants.is_empty() && self.variant != Some(variant) {
            self.variant = Some(variant);
            lines.push(format!("setoption name UCI_Variant value {variant}"));
        }
        if lines.len() > settled {
            lines.push("isready".to_owned());
        }
        let mut position = format!("position fen {}", work.initial_fen.trim());
        if !work.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&work.moves.join(" "));
        }
        lines.push(position);
        // A limit of 0 reads as 1: engines read `go movetime 0` / `depth 0` / `nodes 0` as no
        // limit (Stockfish searches until `stop`, which a requester on the board never sends).
        lines.push(match work.search {
            Search::Movetime(ms) => format!("go movetime {}", ms.max(1)),
            Search::Depth(d) => format!("go depth {}", d.max(1)),
            Search::Nodes(n) => format!("go nodes {}", n.max(1)),
        });
        Ok(lines)
    }
}

/// `setoption name NAME value V` when `V` differs from what the engine was last told.
fn set(lines: &mut Vec<String>, told: &mut Option<u32>, value: u32, name: &str) {
    if *told != Some(value) {
        *told = Some(value);
        lines.push(format!("setoption name {name} value {value}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const CAPS: Caps = Caps {
        max_threads: 8,
        max_hash_mb: 1024,
    };

    fn work(json: &str) -> Work {
        let job: Job = serde_json::from_str(json).unwrap();
        job.work
    }

    fn job(session: &str, search: &str, multi_pv: u32, variant: &str) -> Work {
        work(&format!(
            r#"{{"id": "aaaaaaaaaaaaaaaa", "work": {{"sessionId": "{session}", "threads": 2,
            "hash": 64, {search}, "multiPv": {multi_pv}, "variant": "{variant}",
            "initialFen": "{START}", "moves": ["e2e4", "e7e5", "e1h1"]}},
            "engine": {{"id": "eeeeeeeeeeeeeeee", "name": "x"}}}}"#
        ))
    }

    #[test]
    fn a_second_job_of_the_session_sends_only_the_position_and_go() {
        let mut state = EngineState::default();
        let first = state.commands(&job("s", r#""movetime": 500"#, 1, "chess"), CAPS, &[]);
        assert_eq!(first.unwrap().len(), 8);
        let again = state.commands(&job("s", r#""nodes": 1000000"#, 1, "chess"), CAPS, &[]);
        assert_eq!(
            again.unwrap(),
            [
                format!("position fen {START} moves e2e4 e7e5 e1h1"),
                "go nodes 1000000".to_owned()
            ]
        );
        let other = state.commands(&job("t", r#""depth": 3"#, 3, "chess"), CAPS, &[]);
        assert_eq!(
            other.unwrap()[..4],
            [
                "ucinewgame",
                "isready",
                "setoption name MultiPV value 3",
                "isready"
            ]
        );
    }

    #[test]
    fn caps_clamp_and_multipv_above_5_is_refused() {
        let mut state = EngineState::default();
        let mut greedy = job("s", r#""depth": 3"#, 0, "chess");
        (greedy.threads, greedy.hash) = (64, 1 << 20);
        let lines = state.commands(&greedy, CAPS, &[]).unwrap();
        assert!(lines.contains(&"setoption name Threads value 8".to_owned()));
        assert!(lines.contains(&"setoption name Hash value 1024".to_owned()));
        assert!(lines.contains(&"setoption name MultiPV value 1".to_owned()));
        let five = job("s", r#""depth": 3"#, 5, "chess");
        assert!(state.commands(&five, CAPS, &[]).is_ok());
        let before = state.clone();
        let six = job("s", r#""depth": 3"#, 6, "chess");
        assert_eq!(state.commands(&six, CAPS, &[]), Err(WorkError::MultiPv(6)));
        assert_eq!(state, before);
    }

    #[test]
    fn variants_need_the_engine_to_offer_them() {
        let mut state = EngineState::default();
        let fairy = [
            "chess".to_owned(),
            "crazyhouse".to_owned(),
            "3check".to_owned(),
        ];
        let zh = state.commands(&job("s", r#""depth": 3"#, 1, "crazyhouse"), CAPS, &fairy);
        assert!(
            zh.unwrap()
                .contains(&"setoption name UCI_Variant value crazyhouse".to_owned())
        );
        let three = state.commands(&job("s", r#""depth": 3"#, 1, "threeCheck"), CAPS, &fairy);
        assert!(
            three
                .unwrap()
                .contains(&"setoption name UCI_Variant value 3check".to_owned())
        );
        let refused = state.commands(&job("s", r#""depth": 3"#, 1, "atomic"), CAPS, &fairy);
        assert_eq!(refused, Err(WorkError::Variant("atomic".to_owned())));
        let stockfish =
            EngineState::default().commands(&job("s", r#""depth": 3"#, 1, "crazyhouse"), CAPS, &[]);
        assert!(stockfish.is_err());
        let chess = EngineState::default()
            .commands(&job("s", r#""depth": 3"#, 1, "fromPosition"), CAPS, &[])
            .unwrap();
        assert!(!chess.iter().any(|l| l.contains("UCI_Variant")));
    }

    #[test]
    fn fields_that_would_break_the_line_are_refused() {
        let mut state = EngineState::default();
        let mut w = job("s", r#""depth": 3"#, 1, "chess");
        w.initial_fen.push_str("\nquit");
        assert_eq!(
            state.commands(&w, CAPS, &[]),
            Err(WorkError::Malformed("initialFen"))
        );
        let mut w = job("s", r#""depth": 3"#, 1, "chess");
        w.moves.push("e2e4 quit".to_owned());
        assert_eq!(
            state.commands(&w, CAPS, &[]),
            Err(WorkError::Malformed("moves"))
        );
        assert!(serde_json::from_str::<Job>(r#"{"id": "x", "work": {}}"#).is_err());
    }

    #[test]
    fn a_zero_limit_is_sent_as_one_not_as_no_limit() {
        for (search, go) in [
            (r#""movetime": 0"#, "go movetime 1"),
            (r#""depth": 0"#, "go depth 1"),
            (r#""nodes": 0"#, "go nodes 1"),
        ] {
            let lines = EngineState::default()
                .commands(&job("s", search, 1, "chess"), CAPS, &[])
                .unwrap();
            assert_eq!(lines.last().map(String::as_str), Some(go));
        }
    }
}
