//! TLS for the blocking transport ([`crate::net`]), feature `tls`: rustls with the `ring`
//! crypto provider, TLS 1.2 and 1.3. A server takes its certificate chain and key, a client
//! the certificates it trusts and the name the server's certificate must carry (a DNS name
//! or an IP address; it is also sent as SNI when it is a name). Set it as
//! [`Options::tls`](crate::net::Options::tls); the rest of the transport is unchanged:
//! TLS wraps the same bytes. The handshake counts against `connect_timeout` (a server
//! drops a connection whose handshake is not done in time: `handshake timed out`).
//!
//! ```ignore
//! let server_options = Options { tls: Some(net_tls::server_config("cert.pem", "key.pem")?), ..Options::default() };
//! let client_options = Options { tls: Some(net_tls::client_config("ca.pem", "localhost")?), ..Options::default() };
//! ```

pub use rustls;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig, ServerConnection};
use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A connection's TLS configuration: a server's or a client's.
#[derive(Clone)]
pub enum TlsConfig {
    /// A server's: its certificate chain and key.
    Server(Arc<ServerConfig>),
    /// A client's: the certificates it trusts, and the name the server must prove.
    Client(Arc<ClientConfig>, ServerName<'static>),
}

impl std::fmt::Debug for TlsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TlsConfig::Server(_) => f.write_str("TlsConfig::Server"),
            TlsConfig::Client(_, name) => write!(f, "TlsConfig::Client({name:?})"),
        }
    }
}

fn invalid(what: &str, e: impl std::fmt::Display) -> io::Error {
    io::Error::new(ErrorKind::InvalidData, format!("{what}: {e}"))
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A server's configuration from PEM files: the certificate chain (the server's own first)
/// and its private key (PKCS#8, PKCS#1 or SEC1). TLS 1.2 and 1.3, no client certificates.
pub fn server_config(cert_chain_pem: impl AsRef<Path>, key_pem: impl AsRef<Path>) -> io::Result<TlsConfig> {
    let certs = CertificateDer::pem_file_iter(cert_chain_pem.as_ref())
        .map_err(|e| invalid("certificate file", e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid("certificate file", e))?;
    if certs.is_empty() {
        return Err(invalid("certificate file", "no certificate"));
    }
    let key = PrivateKeyDer::from_pem_file(key_pem.as_ref()).map_err(|e| invalid("key file", e))?;
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| invalid("TLS", e))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| invalid("certificate and key", e))?;
    Ok(TlsConfig::Server(Arc::new(config)))
}

/// A client's configuration: trusts the certificates in `ca_pem` (and nothing else) and
/// requires the server's certificate to be for `server_name` (a DNS name or an IP address).
/// TLS 1.2 and 1.3.
pub fn client_config(ca_pem: impl AsRef<Path>, server_name: &str) -> io::Result<TlsConfig> {
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(ca_pem.as_ref()).map_err(|e| invalid("CA file", e))? {
        roots.add(cert.map_err(|e| invalid("CA file", e))?).map_err(|e| invalid("CA file", e))?;
    }
    if roots.is_empty() {
        return Err(invalid("CA file", "no certificate"));
    }
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| invalid("TLS", e))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    client_with(Arc::new(config), server_name)
}

/// A client's configuration from a rustls one built by the caller (other roots, client
/// certificates, another provider).
pub fn client_with(config: Arc<ClientConfig>, server_name: &str) -> io::Result<TlsConfig> {
    let name = ServerName::try_from(server_name.to_string()).map_err(|e| invalid("server name", e))?;
    Ok(TlsConfig::Client(config, name))
}

/// One connection's TLS state, shared by its reader and writer threads. The lock on the
/// session is held only to move bytes in and out of it; encrypted bytes go to the socket
/// under `out` (taken before the session is released), so records leave in the order they
/// were sealed.
pub(crate) struct Session {
    conn: Mutex<Connection>,
    out: Mutex<()>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the session had decrypted.
enum Drained {
    Data,
    Empty,
    End,
}

impl Session {
    pub(crate) fn new(config: &TlsConfig) -> io::Result<Session> {
        let mut conn: Connection = match config {
            TlsConfig::Server(c) => ServerConnection::new(c.clone()).map_err(|e| invalid("TLS", e))?.into(),
            TlsConfig::Client(c, name) => {
                ClientConnection::new(c.clone(), name.clone()).map_err(|e| invalid("TLS", e))?.into()
            }
        };
        // The transport bounds its own send queue; the session holds one chunk at a time.
        conn.set_buffer_limit(None);
        Ok(Session {
            conn: Mutex::new(conn),
            out: Mutex::new(()),
        })
    }

    /// Runs the handshake on `stream` within `timeout`; the reason when it fails.
    pub(crate) fn handshake(&self, mut stream: &TcpStream, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let mut c = lock(&self.conn);
        while c.is_handshaking() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("handshake timed out after {} ms", timeout.as_millis()));
            }
            let _ = stream.set_read_timeout(Some(left));
            let _ = stream.set_write_timeout(Some(left));
            match c.complete_io(&mut stream) {
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(format!("handshake timed out after {} ms", timeout.as_millis()));
                }
                Err(e) => {
                    // the alert, if any, goes to the peer
                    let _ = self.flush(c, stream);
                    return Err(format!("handshake failed: {e}"));
                }
            }
        }
        Ok(())
    }

    /// Writes what the session has sealed (records, alerts) to the socket, in order.
    fn flush(&self, mut c: MutexGuard<'_, Connection>, mut stream: &TcpStream) -> io::Result<()> {
        if !c.wants_write() {
            return Ok(());
        }
        let mut sealed = Vec::new();
        while c.wants_write() {
            c.write_tls(&mut sealed)?;
        }
        let _order = lock(&self.out);
        drop(c);
        stream.write_all(&sealed)
    }

    /// Encrypts `plain` and writes it (the writer thread).
    pub(crate) fn write(&self, stream: &TcpStream, plain: &[u8]) -> io::Result<()> {
        for chunk in plain.chunks(64 << 10) {
            let mut c = lock(&self.conn);
            c.writer().write_all(chunk)?;
            self.flush(c, stream)?;
        }
        Ok(())
    }

    /// Sends close_notify (before the socket's sending side is shut).
    pub(crate) fn close_notify(&self, stream: &TcpStream) {
        let mut c = lock(&self.conn);
        c.send_close_notify();
        let _ = self.flush(c, stream);
    }

    fn drain(c: &mut Connection, plain: &mut Vec<u8>) -> io::Result<Drained> {
        let mut buf = [0u8; 16 << 10];
        let mut got = false;
        loop {
            match c.reader().read(&mut buf) {
                Ok(0) => return Ok(if got { Drained::Data } else { Drained::End }),
                Ok(n) => {
                    plain.extend_from_slice(&buf[..n]);
                    got = true;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    return Ok(if got { Drained::Data } else { Drained::Empty });
                }
                // the peer closed the socket without close_notify: the end of the stream
                // (framing tells a cut message)
                Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
                    return Ok(if got { Drained::Data } else { Drained::End });
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Reads what arrives next into `plain` (cleared first): Ok(false) at the end of the
    /// stream; Ok(true) with what was decrypted (maybe nothing yet). Read timeouts come
    /// back as the socket's errors.
    pub(crate) fn read(&self, mut stream: &TcpStream, raw: &mut [u8], plain: &mut Vec<u8>) -> io::Result<bool> {
        plain.clear();
        {
            let mut c = lock(&self.conn);
            match Session::drain(&mut c, plain)? {
                Drained::Data => return Ok(true),
                Drained::End => return Ok(false),
                Drained::Empty => {}
            }
        }
        let n = stream.read(raw)?;
        let mut c = lock(&self.conn);
        let mut rest = &raw[..n];
        let mut end = false;
        loop {
            // rustls takes a bounded amount at a time and holds at most 16 KiB of
            // decrypted bytes: feed, decrypt and take them out until the chunk is consumed
            c.read_tls(&mut rest)?;
            if let Err(e) = c.process_new_packets() {
                let _ = self.flush(c, stream);
                return Err(invalid("protocol error: TLS", e));
            }
            end |= matches!(Session::drain(&mut c, plain)?, Drained::End);
            if rest.is_empty() {
                break;
            }
        }
        self.flush(c, stream)?;
        Ok(!plain.is_empty() || (!end && n > 0))
    }
}
