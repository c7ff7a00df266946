// fastwire/net_tls.h - fastwire::net over TLS (Asio's SSL layer on OpenSSL; link with
// OpenSSL::SSL). The same server and client as net.h, with a tls transport:
//
//   asio::ssl::context sc = fastwire::net::tls_server_context("cert.pem", "key.pem");
//   fastwire::net::tls_server<Handler, service::Sender> srv(io, "::", 0, {}, fastwire::net::tls{&sc});
//   asio::ssl::context cc = fastwire::net::tls_client_context("ca.pem");   // "": the system's CAs
//   fastwire::net::tls_client<service::Client> cli(io, {}, fastwire::net::tls{&cc});
//   cli.connect("localhost", srv.port());     // the certificate must name the host
//
// TLS 1.2 or newer; the client verifies the server's certificate chain and its host name
// (or IP address). The contexts must outlive the servers and clients using them.
#pragma once

#include <asio/ssl.hpp>

#include <string>
#include <utility>

#include <fastwire/net.h>

namespace fastwire {
namespace net {

struct tls {
    asio::ssl::context* context = nullptr;

    using stream_type = asio::ssl::stream<asio::ip::tcp::socket>;
    static constexpr const char* name = "tls";
    stream_type make(asio::ip::tcp::socket s) const { return stream_type(std::move(s), *context); }
    static asio::ip::tcp::socket& socket(stream_type& s) noexcept { return s.next_layer(); }
    template <class Handler>
    void handshake(stream_type& s, bool server, const std::string& host, Handler&& h) const {
        if (!server) {
            // SNI, and the name the certificate must carry.
            SSL_ctrl(s.native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                     const_cast<char*>(host.c_str()));
            s.set_verify_callback(asio::ssl::host_name_verification(host));
        }
        s.async_handshake(server ? asio::ssl::stream_base::server : asio::ssl::stream_base::client,
                          std::forward<Handler>(h));
    }
};

template <class Handler, class Sender>
using tls_server = basic_server<Handler, Sender, tls>;
template <class Client>
using tls_client = basic_client<Client, tls>;

// A server context with a certificate chain and its private key (PEM files).
inline asio::ssl::context tls_server_context(const std::string& cert_file, const std::string& key_file) {
    asio::ssl::context c(asio::ssl::context::tls_server);
    c.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                  asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
    c.use_certificate_chain_file(cert_file);
    c.use_private_key_file(key_file, asio::ssl::context::pem);
    return c;
}

// A client context that trusts the CA certificates in ca_file ("": the system's).
inline asio::ssl::context tls_client_context(const std::string& ca_file = {}) {
    asio::ssl::context c(asio::ssl::context::tls_client);
    c.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                  asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
    if (ca_file.empty())
        c.set_default_verify_paths();
    else
        c.load_verify_file(ca_file);
    c.set_verify_mode(asio::ssl::verify_peer);
    return c;
}

}  // namespace net
}  // namespace fastwire
