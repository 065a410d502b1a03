//! `fenguard provide` (issue 18, SPEC 13): a guarded engine for lichess's analysis board
//! through lichess's external-engine API. The provider registers the engine with lila (OAuth
//! token, scopes `engine:read` `engine:write`), then long-polls lichess's work broker
//! (lila-engine) for analysis jobs and streams the engine's output back over HTTPS: it dials
//! out, no port is opened. Every process and machine holding the same provider secret pulls
//! from the same queue.
//!
//! The third shell around the same [`Session`](crate::session::Session): each worker runs
//! the proxy's [`Relay`](crate::proxy::relay::Relay) with a pair of pipes as its GUI side
//! ([`engine_link`]); a job ([`work`]) becomes the GUI lines lichess's example provider sends,
//! and the session's answers are streamed in the broker's grammar ([`job`],
//! [`crate::uci::broker`]).

pub mod board;
pub mod config;
pub mod engine_link;
pub mod job;
pub mod lichess;
pub mod secret;
pub mod work;
pub mod worker;

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::logging::{init, session_id};
use crate::proxy::EXIT_USAGE;
use crate::proxy::spec::{SessionSpec, ShellArgs};
use crate::session::{Commands, Guard};
use engine_link::EngineMaker;
use lichess::{Lichess, Registration};
use work::{Caps, uci_variant};

/// lichess's variant names (lila's `variants` field).
pub const LICHESS_VARIANTS: [&str; 8] = [
    "chess",
    "crazyhouse",
    "antichess",
    "atomic",
    "horde",
    "kingofthehill",
    "racingkings",
    "3check",
];

/// How long a graceful end waits for the workers' last jobs.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(30);

/// `fenguard provide [--config FILE] [--log-dir DIR] [-v...] [-- ENGINE [ARGS...]]`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ProvideArgs {
    /// The options every shell takes.
    #[command(flatten)]
    pub shell: ShellArgs,
}

/// Runs the provider until SIGTERM or SIGINT; returns the exit status (0 after a graceful end,
/// 2 for a configuration, engine start or registration error).
pub fn run(args: &ProvideArgs) -> ExitCode {
    match run_inner(args) {
        Ok(status) => ExitCode::from(status),
        Err(message) => {
            eprintln!("fenguard: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// What `[provider]` resolves to before anything starts.
struct Plan {
    token: String,
    secret: String,
    caps: Caps,
}

fn plan(spec: &SessionSpec) -> Result<Plan, String> {
    let config = &spec.config.provider;
    let var = |name: &str| std::env::var(name).ok();
    for (key, url) in [
        ("lila_url", &config.lila_url),
        ("broker_url", &config.broker_url),
    ] {
        check_url(url).map_err(|e| format!("provider.{key} {url:?}: {e}"))?;
    }
    if config.workers == 0 {
        return Err("provider.workers must be at least 1".to_owned());
    }
    // lila's limits (lichess-org/api `ExternalEngineRegistration.yaml`), said here rather
    // than as lila's HTTP 400.
    let name = config.name.trim().chars().count();
    if name != 0 && !(3..=200).contains(&name) {
        return Err(format!(
            "provider.name {:?}: 3 to 200 characters (lila's limits)",
            config.name
        ));
    }
    if config
        .max_threads
        .is_some_and(|n| !(1..=65536).contains(&n))
    {
        return Err("provider.max_threads: 1 to 65536 (lila's limits)".to_owned());
    }
    if !(1..=1_048_576).contains(&config.max_hash_mb) {
        return Err("provider.max_hash_mb: 1 to 1048576 MiB (lila's limits)".to_owned());
    }
    let token = secret::token(config, var)?;
    let path = secret::secret_path(config, var)
        .ok_or("no place for the provider secret: set provider.secret_file")?;
    let secret = secret::provider_secret(&path)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_threads = config
        .max_threads
        .unwrap_or(u32::try_from(cores).unwrap_or(u32::MAX))
        .clamp(1, 65536);
    Ok(Plan {
        token,
        secret,
        caps: Caps {
            max_threads,
            max_hash_mb: config.max_hash_mb,
        },
    })
}

/// `https://...`, or `http://` to a loopback host (a test, a local lila).
fn check_url(url: &str) -> Result<(), &'static str> {
    if url.starts_with("https://") {
        return Ok(());
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err("expected an https:// URL");
    };
    let host = rest.split(['/', '?']).next().unwrap_or("");
    let host = host
        .rsplit_once(':')
        .filter(|(h, port)| !h.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(h, _)| h);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err("plain http:// only to a loopback address; use https://")
    }
}

/// The lichess variants to register and the `UCI_Variant` values they need: configured, else
/// the engine's `UCI_Variant` list intersected with lichess's names (chess alone without one).
fn variants(
    configured: &[String],
    offered: &[String],
) -> Result<(Vec<String>, Vec<String>), String> {
    let wanted: Vec<String> = if configured.is_empty() {
        LICHESS_VARIANTS
            .iter()
            .filter(|v| **v == "chess" || offered.iter().any(|o| o == *v))
            .map(|v| (*v).to_owned())
            .collect()
    } else {
        // lila registers lichess's own names only: an alias lila-engine reads (`standard`,
        // `threeCheck`, ...) is written as the name it stands for.
        let mut names: Vec<String> = Vec::new();
        for name in configured {
            let lichess = uci_variant(name).and_then(|uci| {
                LICHESS_VARIANTS
                    .iter()
                    .find(|v| uci_variant(v) == Some(uci))
            });
            let name = lichess.map_or_else(|| name.clone(), |v| (*v).to_owned());
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    };
    for name in &wanted {
        let uci = uci_variant(name).ok_or_else(|| {
            format!(
                "provider.variants: {name:?} is not a lichess variant ({})",
                LICHESS_VARIANTS.join(", ")
            )
        })?;
        if uci != "chess" && !offered.iter().any(|o| o == uci) {
            return Err(format!(
                "provider.variants: the engine does not offer {name:?} (its UCI_Variant values: {})",
                if offered.is_empty() {
                    "none".to_owned()
                } else {
                    offered.join(", ")
                }
            ));
        }
    }
    Ok((wanted, offered.to_vec()))
}

fn run_inner(args: &ProvideArgs) -> Result<u8, String> {
    let mut spec = SessionSpec::load(&args.shell)?;
    // SPEC 12: provide's sessions take UCI commands only.
    spec.config.guard.commands = Commands::Uci;
    // Analysis asks the engine: an opening book's move has no score to show on the board.
    spec.book = None;
    let plan = plan(&spec)?;
    let logs = init(&spec.log_settings(false));
    tracing::info!("fenguard {} provide starting", env!("CARGO_PKG_VERSION"));
    // Unhealthy until registered; then the workers say whether the broker answers.
    let health = crate::metrics::Health::starting();
    let _metrics = crate::metrics::start(
        &spec.config.metrics,
        crate::metrics::Service::Provide,
        health.clone(),
    )
    .map_err(|e| e.to_string())?;
    let provider = spec.config.provider.clone();
    let spec = Arc::new(spec);
    let guard = Guard::new(
        &spec.config.serve.allow_options,
        Some(u64::from(plan.caps.max_threads)),
        Some(u64::from(plan.caps.max_hash_mb)),
    )
    .with_client_options(&spec.config.serve.client_options);
    let sid = session_id();
    let makers: Vec<EngineMaker> = (1..=provider.workers)
        .map(|n| {
            let sid = format!("{sid}-w{n}");
            let positions = spec
                .log_dir
                .as_ref()
                .filter(|_| spec.config.log.positions)
                .map(|dir| dir.join(format!("positions-{sid}.jsonl")));
            EngineMaker {
                spec: Arc::clone(&spec),
                guard: guard.clone(),
                stderr: logs.stderr.clone(),
                positions,
                sid,
                label: Arc::new(Mutex::new(None)),
            }
        })
        .collect();
    let first = makers[0].start()?;
    let (lichess_variants, uci_variants) = variants(&provider.variants, &first.info.variants)?;
    // lila takes 3 to 200 characters: a blank name is no name; the engine's is cut, or
    // lengthened when shorter.
    let name = [provider.name.trim(), first.info.name.trim(), "fenguard"]
        .into_iter()
        .find(|name| !name.is_empty())
        .map(|name| match name.chars().count() {
            0..3 => format!("{name} (fenguard)"),
            _ => name.chars().take(200).collect::<String>(),
        })
        .unwrap_or_default();
    let lichess = Lichess::new(&provider.lila_url, &provider.broker_url, plan.token);
    let registration = Registration {
        name: name.clone(),
        max_threads: plan.caps.max_threads,
        max_hash: plan.caps.max_hash_mb,
        variants: lichess_variants.clone(),
        provider_secret: plan.secret.clone(),
    };
    let id = lichess
        .register(&registration)
        .map_err(|e| format!("cannot register the engine with {}: {e}", provider.lila_url))?;
    tracing::info!(
        "registered {name:?} as {id} on {} (variants {}, max threads {}, max hash {} MiB); {} workers polling {}",
        provider.lila_url,
        lichess_variants.join(", "),
        plan.caps.max_threads,
        plan.caps.max_hash_mb,
        provider.workers,
        provider.broker_url
    );
    health.set_healthy();
    eprintln!(
        "fenguard: engine {name:?} registered as {id}; serving {} with {} worker(s)",
        provider.broker_url, provider.workers
    );
    let secret = Arc::new(plan.secret);
    let uci_variants = Arc::new(uci_variants);
    let keep_alive = Some(Duration::from_secs(provider.keep_alive_s)).filter(|d| !d.is_zero());
    let (slots, receivers): (Vec<board::Slot>, Vec<_>) = makers
        .iter()
        .map(|_| {
            let (events, receiver) = std::sync::mpsc::channel();
            let shared = Arc::new(board::Shared::default());
            (board::Slot { shared, events }, receiver)
        })
        .unzip();
    let board = Arc::new(board::Board::new(slots));
    let mut first = Some(first);
    let mut handles = Vec::new();
    for (index, (maker, receiver)) in makers.into_iter().zip(receivers).enumerate() {
        let worker = worker::Worker {
            maker,
            lichess: lichess.clone(),
            secret: Arc::clone(&secret),
            caps: plan.caps,
            variants: Arc::clone(&uci_variants),
            keep_alive,
            index,
            board: Arc::clone(&board),
            health: health.clone(),
        };
        let engine = first.take();
        let shared = Arc::clone(&board.slots()[index].shared);
        let thread = std::thread::Builder::new()
            .name(format!("worker {}", worker.maker.sid))
            .spawn(move || worker.run(engine, &shared, &receiver))
            .map_err(|e| format!("no worker thread: {e}"))?;
        handles.push(thread);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let received = runtime.block_on(async {
        let mut signals = crate::proxy::signals::Signals::install();
        signals.recv().await
    });
    tracing::info!(
        "{}: finishing the running jobs, then exiting",
        received.name
    );
    for slot in board.slots() {
        slot.shared.shut_down(&slot.events);
    }
    let deadline = std::time::Instant::now() + SHUTDOWN_WAIT;
    for thread in handles {
        while !thread.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
    tracing::info!("fenguard provide exiting");
    drop(logs);
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_https_or_loopback() {
        assert!(check_url("https://lichess.org").is_ok());
        assert!(check_url("http://127.0.0.1:9666").is_ok());
        assert!(check_url("http://localhost:8080/").is_ok());
        assert!(check_url("http://[::1]:80").is_ok());
        assert!(check_url("http://lichess.org").is_err());
        assert!(check_url("http://10.0.0.1:80").is_err());
        assert!(check_url("ftp://x").is_err());
    }

    #[test]
    fn variants_are_the_engines_list_in_lichess_names() {
        let fairy: Vec<String> = ["chess", "crazyhouse", "3check", "xiangqi", "capablanca"]
            .map(String::from)
            .to_vec();
        let (names, uci) = variants(&[], &fairy).unwrap();
        assert_eq!(names, ["chess", "crazyhouse", "3check"]);
        assert_eq!(uci, fairy);
        assert_eq!(variants(&[], &[]).unwrap().0, ["chess"]);
        let atomic = variants(&["atomic".to_owned()], &fairy).unwrap_err();
        assert!(atomic.contains("does not offer \"atomic\""), "{atomic}");
        assert!(variants(&["xiangqi".to_owned()], &fairy).is_err());
        let aliases = ["standard", "threeCheck", "chess", "chess960"].map(str::to_owned);
        assert_eq!(variants(&aliases, &fairy).unwrap().0, ["chess", "3check"]);
    }
}
