//! The two credentials of a provider: the lichess OAuth token (read, never written) and the
//! provider secret (created once, mode 0600, then reused: restarts and every machine given
//! the same file pull jobs from the same queue of lichess's work broker).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::config::ProviderConfig;

/// `$XDG_CONFIG_HOME/fenguard/NAME`, else `$HOME/.config/fenguard/NAME`.
fn config_file(name: &str, var: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    crate::serve::config::default_tokens_file(var).map(|tokens| tokens.with_file_name(name))
}

/// The lichess OAuth token: `provider.token_file` when set, else `$LICHESS_API_TOKEN`, else the
/// file `lichess-token` in fenguard's configuration directory. Surrounding blanks are dropped.
///
/// # Errors
/// A message naming the file (or the variable) and how to get a token.
pub fn token(
    config: &ProviderConfig,
    var: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let how = format!(
        "create one at {}/account/oauth/token/create?scopes[]=engine:read&scopes[]=engine:write",
        config.lila_url.trim_end_matches('/')
    );
    let path = if config.token_file.is_empty() {
        if let Some(token) = var("LICHESS_API_TOKEN").filter(|t| !t.trim().is_empty()) {
            return Ok(token.trim().to_owned());
        }
        config_file("lichess-token", &var).ok_or_else(|| {
            format!("no lichess token: set provider.token_file or LICHESS_API_TOKEN ({how})")
        })?
    } else {
        PathBuf::from(&config.token_file)
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("lichess token file {}: {e} ({how})", path.display()))?;
    let token = text.trim();
    if token.is_empty() || token.contains(char::is_whitespace) {
        return Err(format!(
            "lichess token file {}: expected one token on one line ({how})",
            path.display()
        ));
    }
    Ok(token.to_owned())
}

/// Where the provider secret is kept: `provider.secret_file`, else `provider-secret` in
/// fenguard's configuration directory.
pub fn secret_path(
    config: &ProviderConfig,
    var: impl Fn(&str) -> Option<String>,
) -> Option<PathBuf> {
    if config.secret_file.is_empty() {
        config_file("provider-secret", &var)
    } else {
        Some(PathBuf::from(&config.secret_file))
    }
}

/// The provider secret in `path`: read when the file exists, else 32 random bytes written as
/// 43 URL-safe base64 characters to a new file of mode 0600 (its directory created). lila
/// accepts 16 to 1024 characters.
///
/// # Errors
/// A message for a file that cannot be read or created, or whose secret is out of bounds.
pub fn provider_secret(path: &Path) -> Result<String, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let secret = text.trim();
            if !(16..=1024).contains(&secret.len()) || secret.contains(char::is_whitespace) {
                return Err(format!(
                    "provider secret file {}: expected 16 to 1024 characters on one line",
                    path.display()
                ));
            }
            return Ok(secret.to_owned());
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("provider secret file {}: {e}", path.display())),
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("no random bytes for the provider secret: {e}"))?;
    let secret = base64_url(&bytes);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    // Written whole to a file of our own, then linked into place: another process that
    // starts at the same time reads a complete secret or none (never an empty file).
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let created = options
        .open(&tmp)
        .and_then(|mut file| {
            file.write_all(format!("{secret}\n").as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::hard_link(&tmp, path));
    let _ = std::fs::remove_file(&tmp);
    match created {
        Ok(()) => {
            tracing::info!("created the provider secret file {}", path.display());
            Ok(secret)
        }
        // Another provider process created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => provider_secret(path),
        Err(e) => Err(format!(
            "cannot create provider secret file {}: {e}",
            path.display()
        )),
    }
}

/// URL-safe base64 without padding (RFC 4648 section 5).
fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_url_matches_rfc_4648() {
        assert_eq!(base64_url(b"f"), "Zg");
        assert_eq!(base64_url(b"foob"), "Zm9vYg");
        assert_eq!(base64_url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64_url(&[0; 32]).len(), 43);
    }

    #[test]
    fn the_secret_is_created_once_0600_and_reused() {
        let dir = std::env::temp_dir().join(format!("fenguard-secret-{}", std::process::id()));
        let path = dir.join("sub").join("provider-secret");
        let first = provider_secret(&path).unwrap();
        assert_eq!(first.len(), 43);
        assert_eq!(provider_secret(&path).unwrap(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "short\n").unwrap();
        assert!(provider_secret(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_token_comes_from_its_file_or_the_environment() {
        let config = ProviderConfig::default();
        let env = |name: &str| (name == "LICHESS_API_TOKEN").then(|| " lip_abc \n".to_owned());
        assert_eq!(token(&config, env).unwrap(), "lip_abc");
        let nothing = |_: &str| None;
        assert!(
            token(&config, nothing)
                .unwrap_err()
                .contains("scopes[]=engine:read")
        );
        let dir = std::env::temp_dir().join(format!("fenguard-token-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("token");
        std::fs::write(&file, "lip_xyz\n").unwrap();
        let config = ProviderConfig {
            token_file: file.display().to_string(),
            ..ProviderConfig::default()
        };
        assert_eq!(token(&config, env).unwrap(), "lip_xyz");
        std::fs::write(&file, "two words\n").unwrap();
        assert!(token(&config, env).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
