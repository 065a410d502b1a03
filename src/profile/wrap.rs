//! `fenguard wrap ENGINE [--name NAME] [--dir DIR] [-- ARGS...]`: makes `fenguard-NAME` (on
//! Unix a two-line script that runs this fenguard under that name, `exec -a`; a copy on
//! Windows) and its profile
//! `fenguard-NAME.toml` beside it (`[engine] command` = the engine's full path, `args`), and
//! prints what to register in the GUI. NAME defaults to the engine's file name; DIR to the
//! user's configuration directory ([`super::config_dir`]: `$XDG_CONFIG_HOME/fenguard`, else
//! `~/.config/fenguard`), where the profile lookup looks and which the user can write (this
//! fenguard's own directory, `/usr/bin` for the Debian package, is not); beside this fenguard
//! only when neither `XDG_CONFIG_HOME` nor `HOME` is set.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `fenguard wrap`.
#[derive(Debug, Clone, clap::Args)]
pub struct WrapArgs {
    /// The engine: a path, or a name looked up on PATH (and /usr/games, /usr/local/games).
    #[arg(value_name = "ENGINE")]
    pub engine: OsString,
    /// The profile name: the executable is `fenguard-NAME`. Default: the engine's file name.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Where the executable and its profile go. Default: the configuration directory,
    /// $XDG_CONFIG_HOME/fenguard, else ~/.config/fenguard (beside this fenguard when neither
    /// variable is set).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Replace an existing `fenguard-NAME` and profile.
    #[arg(long)]
    pub force: bool,
    /// Arguments for the engine.
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Runs `fenguard wrap`; exit status 0, or 2 with a one-line message.
pub fn run(args: &WrapArgs) -> ExitCode {
    match wrap(args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("fenguard wrap: {message}");
            ExitCode::from(crate::proxy::EXIT_USAGE)
        }
    }
}

/// This fenguard's path as it was started (absolute; symbolic links kept, so a script made
/// through `/usr/local/bin/fenguard` still works when that link moves to a new version): its
/// `argv[0]` (named `fenguard`), looked up on `PATH` when it is a bare name, else the resolved
/// executable.
fn invoked_path() -> std::io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    // Looked up as a shell does (`proxy::engine::resolve`: an executable file); it must be
    // this very fenguard (a wrapped name is a script; another `fenguard` is not this one).
    let invoked = std::env::args_os().next().and_then(|argv0| {
        crate::proxy::engine::resolve(&argv0, std::env::var_os("PATH").as_deref()).ok()
    });
    let same = |p: &PathBuf| {
        p.file_stem().is_some_and(|n| n == "fenguard")
            && std::fs::canonicalize(p).ok() == std::fs::canonicalize(&exe).ok()
    };
    Ok(invoked.filter(same).unwrap_or(exe))
}

/// A TOML basic string.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn wrap(args: &WrapArgs) -> Result<String, String> {
    let engine = crate::proxy::engine::resolve(&args.engine, std::env::var_os("PATH").as_deref())
        .map_err(|e| e.to_string())?;
    let engine = std::path::absolute(&engine).unwrap_or(engine);
    let name = match &args.name {
        Some(name) => name.clone(),
        None => engine
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| {
                format!(
                    "cannot name a profile after {}: give --name",
                    engine.display()
                )
            })?
            .to_owned(),
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(format!(
            "bad profile name `{name}`: use letters, digits, `-`, `_`, `.`"
        ));
    }
    let me = invoked_path().map_err(|e| format!("cannot find this fenguard: {e}"))?;
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => super::config_dir(&|name| std::env::var(name).ok())
            .or_else(|| me.parent().map(Path::to_path_buf))
            .unwrap_or_default(),
    };
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let exe = dir.join(format!("fenguard-{name}{}", std::env::consts::EXE_SUFFIX));
    let profile = dir.join(format!("fenguard-{name}.toml"));
    for path in [&exe, &profile] {
        if (path.exists() || path.symlink_metadata().is_ok()) && !args.force {
            return Err(format!("{} exists (--force replaces it)", path.display()));
        }
    }
    let engine_text = engine
        .to_str()
        .ok_or_else(|| format!("engine path is not UTF-8: {}", engine.display()))?;
    let list: Vec<String> = args.args.iter().map(|a| quoted(a)).collect();
    let text = format!(
        "# fenguard profile `{name}`: read by {} (any section of fenguard.toml may go here).\n[engine]\ncommand = {}\nargs = [{}]\n",
        exe.display(),
        quoted(engine_text),
        list.join(", ")
    );
    let _ = std::fs::remove_file(&exe);
    link(&me, &exe, &name)?;
    std::fs::write(&profile, text)
        .map_err(|e| format!("cannot write {}: {e}", profile.display()))?;
    Ok(format!(
        "Register this in your GUI as the engine (no arguments needed):\n  {}\nProfile (engine {}): {}\n",
        exe.display(),
        engine.display(),
        profile.display()
    ))
}

/// The Unix `fenguard-NAME`: a script that starts `me` with `argv[0]` = its own path (bash's
/// `exec -a`; same process, so a GUI's signals reach fenguard), so that the name selects the
/// profile and the profile beside the script is found. A script, not a symbolic link: GUIs
/// tell engines apart by a checksum of the file (pychess keeps the md5 of the analyzer chosen
/// in its preferences and finds the engine by it), and links to one fenguard would all be one
/// file; each script names its own profile, so no two are alike.
#[cfg(unix)]
fn script(me: &Path, name: &str) -> Result<String, String> {
    let me = me
        .to_str()
        .ok_or_else(|| format!("fenguard's path is not UTF-8: {}", me.display()))?;
    // Single-quoted for the shell: a `'` becomes `'\''`.
    let me = format!("'{}'", me.replace('\'', "'\\''"));
    Ok(format!(
        "#!/usr/bin/env bash\n# fenguard-{name}: fenguard with the profile `{name}` (made by `fenguard wrap`).\nexec -a \"$0\" {me} \"$@\"\n"
    ))
}

#[cfg(unix)]
fn link(me: &Path, exe: &Path, name: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt as _;
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", exe.display());
    std::fs::write(exe, script(me, name)?).map_err(cannot)?;
    std::fs::set_permissions(exe, std::fs::Permissions::from_mode(0o755)).map_err(cannot)
}

#[cfg(not(unix))]
fn link(me: &Path, exe: &Path, _name: &str) -> Result<(), String> {
    std::fs::copy(me, exe)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", me.display(), exe.display()))
}
