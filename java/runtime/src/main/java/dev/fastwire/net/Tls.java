package dev.fastwire.net;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the socket transport (JSSE): set {@link Options#tls} to a context and the server
 * and the client speak TLS 1.2 or 1.3 over the same bytes. The handshake is part of
 * connectTimeout (a server drops a connection whose handshake is not done in time); a
 * graceful close sends close_notify after the flush. The client checks the server's
 * certificate against the context's trust and its name against the host connected to
 * (or {@link Options#tlsServerName}).
 *
 * <pre>
 * serverOptions.tls = Tls.serverContext(Path.of("cert.pem"), Path.of("key.pem"));
 * clientOptions.tls = Tls.clientContext(Path.of("ca.pem"));
 * </pre>
 */
public final class Tls {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private Tls() {
    }

    /** A server's context from a PEM certificate chain and a PEM PKCS#8 private key (EC or RSA). */
    public static SSLContext serverContext(Path certPem, Path keyPem) throws IOException, GeneralSecurityException {
        Certificate[] chain = certificates(certPem).toArray(new Certificate[0]);
        PrivateKey key = privateKey(Files.readString(keyPem, StandardCharsets.US_ASCII));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] none = new char[0];
        ks.setKeyEntry("fastwire", key, none, chain);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, none);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), null, null);
        return c;
    }

    /** A client's context that trusts the certificates in a PEM file (a CA or a self-signed server's). */
    public static SSLContext clientContext(Path caPem) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        int i = 0;
        for (Certificate c : certificates(caPem)) ks.setCertificateEntry("ca" + i++, c);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, tmf.getTrustManagers(), null);
        return c;
    }

    private static Collection<? extends Certificate> certificates(Path pem) throws IOException, GeneralSecurityException {
        byte[] bytes = Files.readAllBytes(pem);
        Collection<? extends Certificate> all = CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(bytes));
        if (all.isEmpty()) throw new GeneralSecurityException("no certificate in " + pem);
        return all;
    }

    private static PrivateKey privateKey(String pem) throws GeneralSecurityException {
        String begin = "-----BEGIN PRIVATE KEY-----";
        int a = pem.indexOf(begin);
        int b = pem.indexOf("-----END PRIVATE KEY-----");
        if (a < 0 || b < a) throw new GeneralSecurityException("the key is not a PEM PKCS#8 private key (BEGIN PRIVATE KEY)");
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(a + begin.length(), b));
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        GeneralSecurityException last = null;
        for (String alg : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * Wraps a connected socket and completes the handshake within timeoutMillis (the socket's
     * read timeout is restored after it). Client mode checks the server's name.
     */
    static SSLSocket handshake(SSLContext context, Socket plain, String host, int port, boolean client,
                               String serverName, long timeoutMillis) throws IOException {
        String peer = client ? (serverName != null ? serverName : host) : null;
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain, peer, port, true);
        s.setUseClientMode(client);
        SSLParameters p = s.getSSLParameters();
        p.setProtocols(PROTOCOLS);
        if (client) p.setEndpointIdentificationAlgorithm("HTTPS");
        s.setSSLParameters(p);
        int before = plain.getSoTimeout();
        s.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
        try {
            s.startHandshake();
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // failed anyway
            }
            throw e;
        }
        s.setSoTimeout(before);
        return s;
    }
}
