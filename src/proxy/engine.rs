//! Finding and starting the engine process so that it never outlives fenguard.
//!
//! The engine runs without a shell, in its own process group (a GUI's Ctrl-C or SIGINT to the
//! group reaches fenguard, not the engine), with `kill_on_drop`. On Linux it also gets
//! `PR_SET_PDEATHSIG = SIGKILL`, so it dies with fenguard even when fenguard is SIGKILLed; on
//! Windows it is put in a Job Object that kills it when fenguard's handle closes.

use std::ffi::{OsStr, OsString};
use std::io::{PipeReader, PipeWriter};
use std::path::{Path, PathBuf};

use tokio::process::{Child, Command};

use crate::config::EngineConfig;

/// Why the engine cannot be started; fenguard prints it as one line and exits with status 2.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// No engine command was given.
    #[error("no engine given: set engine.command in the config or run `fenguard -- ENGINE`")]
    NoCommand,
    /// A bare name was not found in any `PATH` directory, nor in the Unix games directories.
    #[error(
        "engine not found: `{}` (looked on PATH and in: {}); give its full path: `fenguard -- /path/to/engine` or engine.command",
        name.display(),
        looked.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    NotOnPath {
        /// The name as given.
        name: PathBuf,
        /// The directories searched, in order (`PATH`'s, then [`FALLBACK_DIRS`]).
        looked: Vec<PathBuf>,
    },
    /// A path that does not exist.
    #[error("engine not found: `{}`", .0.display())]
    NotFound(PathBuf),
    /// A path that exists but is not an executable file.
    #[error("engine is not an executable file: `{}`", .0.display())]
    NotExecutable(PathBuf),
    /// The operating system refused to start it.
    #[error("cannot start engine `{}`: {source}", path.display())]
    Spawn {
        /// The resolved program.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Where a bare engine name is looked for after `PATH`: Debian and Ubuntu install engines
/// (`stockfish`, `fairy-stockfish`, `toga2`, `polyglot`) in `/usr/games`, which root's
/// `PATH` and many service environments do not contain.
#[cfg(unix)]
pub const FALLBACK_DIRS: &[&str] = &["/usr/games", "/usr/local/games"];
/// Where a bare engine name is looked for after `PATH` (none on Windows).
#[cfg(not(unix))]
pub const FALLBACK_DIRS: &[&str] = &[];

/// ` (SIGSEGV)` for the signals an engine usually dies of, else nothing: for messages such as
/// `signal 11 (SIGSEGV)` (Linux numbering).
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

/// Resolves `command` like a shell would, without running one: a name without a path
/// separator is looked up in the directories of `path_var` (`$PATH`), then in
/// [`FALLBACK_DIRS`]; a path must be an executable file. The result is absolute when the
/// input was a path.
///
/// # Errors
/// [`EngineError::NotOnPath`] (naming every directory searched), [`EngineError::NotFound`] or
/// [`EngineError::NotExecutable`].
pub fn resolve(command: &OsStr, path_var: Option<&OsStr>) -> Result<PathBuf, EngineError> {
    let fallback: Vec<&Path> = FALLBACK_DIRS.iter().map(Path::new).collect();
    resolve_in(command, path_var, &fallback)
}

/// [`resolve`] with the directories searched after `PATH` given.
fn resolve_in(
    command: &OsStr,
    path_var: Option<&OsStr>,
    fallback: &[&Path],
) -> Result<PathBuf, EngineError> {
    if command.is_empty() {
        return Err(EngineError::NoCommand);
    }
    let path = Path::new(command);
    if path.components().count() > 1 || path.is_absolute() {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        return match std::fs::metadata(&path) {
            Err(_) => Err(EngineError::NotFound(path)),
            Ok(_) if is_executable(&path) => Ok(path),
            Ok(_) => Err(EngineError::NotExecutable(path)),
        };
    }
    let mut dirs: Vec<PathBuf> = path_var
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    dirs.retain(|dir| !dir.as_os_str().is_empty());
    for dir in fallback {
        if !dirs.iter().any(|d| d == dir) {
            dirs.push(dir.to_path_buf());
        }
    }
    dirs.iter()
        .flat_map(|dir| candidates(dir, command))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(|| EngineError::NotOnPath {
            name: path.to_path_buf(),
            looked: dirs.clone(),
        })
}

#[cfg(unix)]
fn candidates(dir: &Path, name: &OsStr) -> Vec<PathBuf> {
    vec![dir.join(name)]
}

#[cfg(windows)]
fn candidates(dir: &Path, name: &OsStr) -> Vec<PathBuf> {
    let mut list = vec![dir.join(name)];
    if Path::new(name).extension().is_none() {
        for ext in ["exe", "com", "bat", "cmd"] {
            list.push(dir.join(name).with_extension(ext));
        }
    }
    list
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(windows)]
fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// A running engine: the child and its three pipes (blocking, read and written by the relay's
/// threads).
#[derive(Debug)]
pub struct Engine {
    /// The process (killed when dropped).
    pub child: Child,
    /// Its standard input.
    pub stdin: PipeWriter,
    /// Its standard output.
    pub stdout: PipeReader,
    /// Its standard error.
    pub stderr: PipeReader,
    /// Windows: the Job Object that kills the engine when fenguard ends.
    #[cfg(windows)]
    _job: Option<job::Job>,
}

/// What keeps a started engine tied to fenguard after its pipes are taken: on Windows the Job
/// Object (dropping it kills the engine); nothing on Unix.
#[derive(Debug)]
pub struct EngineGuard {
    #[cfg(windows)]
    _job: Option<job::Job>,
}

impl Engine {
    /// The child, its three pipes, and the guard to keep as long as the engine is in use.
    pub fn into_parts(self) -> (Child, PipeWriter, PipeReader, PipeReader, EngineGuard) {
        let guard = EngineGuard {
            #[cfg(windows)]
            _job: self._job,
        };
        (self.child, self.stdin, self.stdout, self.stderr, guard)
    }
}

/// Starts `program args` with the working directory and environment of `config`.
///
/// On Linux this must run on the thread that lives as long as fenguard (the main thread):
/// the parent-death signal fires when the spawning thread ends.
///
/// # Errors
/// [`EngineError::Spawn`] when the process cannot be started.
pub fn spawn(
    program: &Path,
    args: &[OsString],
    config: &EngineConfig,
) -> Result<Engine, EngineError> {
    let spawn_error = |source| EngineError::Spawn {
        path: program.to_path_buf(),
        source,
    };
    // fenguard's own pipes (std's are close-on-exec), not tokio's: the relay's threads use
    // blocking reads and writes on them.
    let (stdin, child_stdin) = {
        let (read, write) = std::io::pipe().map_err(spawn_error)?;
        (write, read)
    };
    let (stdout, child_stdout) = std::io::pipe().map_err(spawn_error)?;
    let (stderr, child_stderr) = std::io::pipe().map_err(spawn_error)?;
    let mut command = Command::new(program);
    command
        .args(args)
        .envs(&config.env)
        .stdin(child_stdin)
        .stdout(child_stdout)
        .stderr(child_stderr)
        .kill_on_drop(true);
    if !config.working_dir.is_empty() {
        command.current_dir(&config.working_dir);
    }
    detach(&mut command);
    let child = command.spawn().map_err(spawn_error)?;
    // The command holds the child's ends of the pipes: close them here, so that the engine's
    // end is seen as the end of its output.
    drop(command);
    #[cfg(windows)]
    let job = child
        .raw_handle()
        .and_then(|handle| job::Job::kill_on_close(handle).ok());
    Ok(Engine {
        child,
        stdin,
        stdout,
        stderr,
        #[cfg(windows)]
        _job: job,
    })
}

/// Own process group; on Linux also die with the parent.
#[cfg(unix)]
fn detach(command: &mut Command) {
    command.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: the closure runs in the forked child before exec and only calls the
        // async-signal-safe functions prctl and getppid.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                ) == -1
                {
                    return Err(std::io::Error::last_os_error());
                }
                // fenguard died between fork and prctl: do not start an orphan.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("fenguard exited during engine start"));
                }
                Ok(())
            });
        }
    }
}

/// A new process group (no Ctrl-C from the GUI's console) and no console window of its own.
#[cfg(windows)]
fn detach(command: &mut Command) {
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    const CREATE_NO_WINDOW: u32 = 0x0800_0000;
    command.creation_flags(CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW);
}

#[cfg(windows)]
mod job {
    use std::os::windows::io::RawHandle;

    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject,
    };

    /// A Job Object with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`: closing it (dropping this, or
    /// fenguard ending in any way) kills every process in it.
    #[derive(Debug)]
    pub struct Job(HANDLE);

    // SAFETY: a job handle may be used and closed from any thread.
    unsafe impl Send for Job {}
    unsafe impl Sync for Job {}

    impl Job {
        /// Creates the job and assigns `process` to it.
        pub fn kill_on_close(process: RawHandle) -> std::io::Result<Job> {
            // SAFETY: plain Win32 calls on a handle we own, with a plain-data struct that
            // outlives the call and its exact size.
            unsafe {
                let handle = CreateJobObjectW(std::ptr::null(), std::ptr::null());
                if handle.is_null() {
                    return Err(std::io::Error::last_os_error());
                }
                let job = Job(handle);
                let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
                info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
                let size =
                    u32::try_from(std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>())
                        .unwrap_or(u32::MAX);
                let info_ptr = std::ptr::from_ref(&info).cast::<core::ffi::c_void>();
                if SetInformationJobObject(job.0, JobObjectExtendedLimitInformation, info_ptr, size)
                    == 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                if AssignProcessToJobObject(job.0, process as HANDLE) == 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(job)
            }
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // SAFETY: the handle came from CreateJobObjectW and is closed once.
            unsafe {
                CloseHandle(self.0);
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn bare_name_is_found_on_path() {
        let found = resolve(OsStr::new("sh"), Some(OsStr::new("/nonexistent:/bin"))).unwrap();
        assert_eq!(found, PathBuf::from("/bin/sh"));
    }

    #[test]
    fn bare_name_missing_from_path_says_where_it_looked() {
        let err = resolve_in(
            OsStr::new("stockfsh"),
            Some(OsStr::new("/bin:/usr/games")),
            &[Path::new("/usr/games"), Path::new("/usr/local/games")],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "engine not found: `stockfsh` (looked on PATH and in: /bin, /usr/games, /usr/local/games); give its full path: `fenguard -- /path/to/engine` or engine.command"
        );
    }

    #[cfg(unix)]
    #[test]
    fn bare_name_missing_from_path_is_found_in_a_games_directory() {
        use std::os::unix::fs::PermissionsExt as _;
        let games = std::env::temp_dir().join(format!("fenguard-games-{}", std::process::id()));
        std::fs::create_dir_all(&games).unwrap();
        let engine = games.join("fenguard-test-engine");
        std::fs::write(&engine, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
        let found = resolve_in(
            OsStr::new("fenguard-test-engine"),
            Some(OsStr::new("/bin")),
            &[Path::new("/nonexistent-games"), &games],
        );
        let _ = std::fs::remove_dir_all(&games);
        assert_eq!(found.unwrap(), engine);
    }

    #[cfg(unix)]
    #[test]
    fn games_directories_are_searched_after_path() {
        assert_eq!(FALLBACK_DIRS, ["/usr/games", "/usr/local/games"]);
        let found = resolve_in(
            OsStr::new("sh"),
            Some(OsStr::new("/bin")),
            &[Path::new("/usr/bin")],
        );
        assert_eq!(found.unwrap(), PathBuf::from("/bin/sh"));
    }

    #[test]
    fn missing_path_is_not_found() {
        let err = resolve(OsStr::new("/nonexistent/engine"), None).unwrap_err();
        assert_eq!(err.to_string(), "engine not found: `/nonexistent/engine`");
    }

    #[test]
    fn non_executable_file_is_refused() {
        let err = resolve(OsStr::new("/etc/passwd"), None).unwrap_err();
        assert!(matches!(err, EngineError::NotExecutable(_)), "{err}");
    }

    #[test]
    fn directory_is_not_executable() {
        let err = resolve(OsStr::new("/tmp"), None).unwrap_err();
        assert!(matches!(err, EngineError::NotExecutable(_)), "{err}");
    }

    #[test]
    fn empty_command_is_an_error() {
        assert!(matches!(
            resolve(OsStr::new(""), None),
            Err(EngineError::NoCommand)
        ));
    }
}
