package ca

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCreateAndLoad: a new CA is made on first use in a private directory
// (0700), its key readable by its owner only (0600); loading it again
// gives the same CA; a CA of its own per installation (two are not the
// same); its certificate is a CA's, for signing only.
func TestCreateAndLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg", "memtrace", "ca")
	c, err := LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	st, err = os.Stat(filepath.Join(dir, KeyFile))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	require.True(t, c.Cert.IsCA)
	require.Equal(t, x509.KeyUsageCertSign|x509.KeyUsageCRLSign, c.Cert.KeyUsage)
	again, err := LoadOrCreate(dir)
	require.NoError(t, err)
	require.Equal(t, c.Fingerprint(), again.Fingerprint())
	other, err := LoadOrCreate(filepath.Join(t.TempDir(), "ca"))
	require.NoError(t, err)
	require.NotEqual(t, c.Fingerprint(), other.Fingerprint())
	require.NotEqual(t, c.SPKIHash(), other.SPKIHash())
	der, err := x509.ParseCertificate(c.DER())
	require.NoError(t, err)
	require.True(t, der.Equal(c.Cert))
	require.True(t, strings.HasPrefix(string(c.PEM()), "-----BEGIN CERTIFICATE-----"))
}

// TestRefusesExposedKey: a key others may read, a directory others may
// write to, or a key file that is a link are refused, naming the reason.
func TestRefusesExposedKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	_, err := Create(dir)
	require.NoError(t, err)
	key := filepath.Join(dir, KeyFile)
	require.NoError(t, os.Chmod(key, 0o644))
	_, err = Load(dir)
	require.ErrorContains(t, err, "readable by others")
	require.NoError(t, os.Chmod(key, 0o600))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err = Load(dir)
	require.ErrorContains(t, err, "writable by others")
	require.NoError(t, os.Chmod(dir, 0o700))
	// The key replaced by a link to a key elsewhere: not followed.
	elsewhere := filepath.Join(t.TempDir(), "k.pem")
	b, err := os.ReadFile(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(elsewhere, b, 0o600))
	require.NoError(t, os.Remove(key))
	require.NoError(t, os.Symlink(elsewhere, key))
	_, err = Load(dir)
	require.Error(t, err)
}

// TestRenew: Create over an existing CA makes a new one and keeps the old
// files beside it.
func TestRenew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	a, err := Create(dir)
	require.NoError(t, err)
	b, err := Create(dir)
	require.NoError(t, err)
	require.NotEqual(t, a.Fingerprint(), b.Fingerprint())
	old, err := os.ReadFile(filepath.Join(dir, CertFile+".old"))
	require.NoError(t, err)
	require.Equal(t, string(a.PEM()), string(old))
	st, err := os.Stat(filepath.Join(dir, KeyFile+".old"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	got, err := Load(dir)
	require.NoError(t, err)
	require.Equal(t, b.Fingerprint(), got.Fingerprint())
}

// TestLeafHandshake: a leaf for a name and one for an IP address verify
// against the CA alone (server auth, the host as SAN, short-lived), are
// cached, and serve a real TLS handshake on loopback to a client that
// trusts only the CA and checks the name.
func TestLeafHandshake(t *testing.T) {
	c, err := Create(filepath.Join(t.TempDir(), "ca"))
	require.NoError(t, err)
	roots := x509.NewCertPool()
	roots.AddCert(c.Cert)
	for _, host := range []string{"app.example", "127.0.0.1"} {
		l, err := c.Leaf(host)
		require.NoError(t, err)
		_, err = l.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		require.NoError(t, err, host)
		require.LessOrEqual(t, l.Leaf.NotAfter.Sub(l.Leaf.NotBefore), LeafValidity+time.Hour)
		again, err := c.Leaf(strings.ToUpper(host))
		require.NoError(t, err)
		require.Same(t, l, again)
		_, err = l.Leaf.Verify(x509.VerifyOptions{DNSName: "other.example", Roots: roots})
		require.Error(t, err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", c.TLSConfig("127.0.0.1"))
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(5 * time.Second))
				conn.Write([]byte("hello over TLS"))
			}()
		}
	}()
	conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: roots, ServerName: "app.example"})
	require.NoError(t, err)
	defer conn.Close()
	b, err := io.ReadAll(conn)
	require.NoError(t, err)
	require.Equal(t, "hello over TLS", string(b))
	// A client that does not trust the CA refuses the same server.
	_, err = tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", ln.Addr().String(), &tls.Config{ServerName: "app.example"})
	require.Error(t, err)
}
