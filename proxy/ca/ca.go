// Package ca is memtrace's own certificate authority, for the proxy's
// interception of HTTPS (issue 58): made on first use in the user's
// config directory (unique per installation: a key of its own), its key
// readable by its owner only, and the short-lived per-host leaf
// certificates it signs (SANs, server-auth usage), cached. memtrace ca
// shows, exports and renews it.
package ca

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/memtrace/memtrace/internal/safefs"
)

// The files of a CA directory.
const (
	CertFile = "ca.pem"     // the CA's certificate (PEM), for browsers and phones
	KeyFile  = "ca-key.pem" // its private key (PEM, PKCS #8), mode 0600
)

// Validity of the CA's certificate and of the leaves it signs.
const (
	CAValidity   = 10 * 365 * 24 * time.Hour
	LeafValidity = 7 * 24 * time.Hour
)

// DefaultDir is where memtrace keeps its CA: memtrace/ca in the user's
// config directory.
func DefaultDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "memtrace", "ca"), nil
}

// CA is a loaded certificate authority.
type CA struct {
	Dir  string
	Cert *x509.Certificate
	key  crypto.Signer

	leafKey *ecdsa.PrivateKey
	mu      sync.Mutex
	leaves  map[string]*tls.Certificate
}

// Fingerprint is the SHA-256 of the CA certificate's DER, hex.
func (c *CA) Fingerprint() string {
	s := sha256.Sum256(c.Cert.Raw)
	return hex.EncodeToString(s[:])
}

// SPKIHash is the base64 SHA-256 of the CA's public key (Chromium's
// --ignore-certificate-errors-spki-list takes it: a browser profile that
// trusts this CA alone).
func (c *CA) SPKIHash() string {
	s := sha256.Sum256(c.Cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(s[:])
}

// PEM is the CA certificate in PEM; DER in DER.
func (c *CA) PEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw})
}
func (c *CA) DER() []byte { return append([]byte(nil), c.Cert.Raw...) }

// Load reads the CA in dir. The directory must be its user's alone and the
// key readable by its owner only; nothing is followed through a link.
func Load(dir string) (*CA, error) {
	d, err := safefs.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if err := d.CheckPrivate(); err != nil {
		return nil, err
	}
	st, err := d.Lstat(KeyFile)
	if err != nil {
		return nil, err
	}
	if int(st.Uid) != os.Geteuid() || st.Mode&0o077 != 0 {
		return nil, fmt.Errorf("%s: the CA's key is readable by others (mode %04o, owner %d): memtrace uses it only when its owner alone may read it (chmod 600)", d.Path(KeyFile), st.Mode&0o7777, st.Uid)
	}
	cb, err := d.ReadFile(CertFile)
	if err != nil {
		return nil, err
	}
	kb, err := d.ReadFile(KeyFile)
	if err != nil {
		return nil, err
	}
	cblock, _ := pem.Decode(cb)
	kblock, _ := pem.Decode(kb)
	if cblock == nil || cblock.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%s: not a PEM certificate", d.Path(CertFile))
	}
	if kblock == nil || kblock.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: not a PEM private key", d.Path(KeyFile))
	}
	cert, err := x509.ParseCertificate(cblock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path(CertFile), err)
	}
	k, err := x509.ParsePKCS8PrivateKey(kblock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path(KeyFile), err)
	}
	signer, ok := k.(crypto.Signer)
	if !ok || !publicKeysEqual(signer.Public(), cert.PublicKey) {
		return nil, fmt.Errorf("%s does not hold the key of %s", d.Path(KeyFile), d.Path(CertFile))
	}
	return newCA(dir, cert, signer)
}

// LoadOrCreate loads the CA in dir, making a new one there when there is
// none (the directory made private, mode 0700).
func LoadOrCreate(dir string) (*CA, error) {
	c, err := Load(dir)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return c, err
	}
	return Create(dir)
}

// Create makes a new CA in dir (made, mode 0700), replacing one there:
// the old certificate and key are kept as ca.pem.old and ca-key.pem.old.
func Create(dir string) (*CA, error) {
	d, err := safefs.MkdirAll(dir, 0o700)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if err := d.CheckPrivate(); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{Organization: []string{"memtrace"}, CommonName: "memtrace CA (" + host + ", " + now.UTC().Format("2006-01-02") + ")"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(CAValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            0,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	for _, f := range []string{CertFile, KeyFile} {
		if old, err := d.ReadFile(f); err == nil {
			perm := os.FileMode(0o644)
			if f == KeyFile {
				perm = 0o600
			}
			if err := d.WriteFile(f+".old", old, perm); err != nil {
				return nil, err
			}
		}
	}
	if err := d.WriteFile(KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return nil, err
	}
	if err := d.WriteFile(CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return newCA(dir, cert, key)
}

func newCA(dir string, cert *x509.Certificate, key crypto.Signer) (*CA, error) {
	lk, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return &CA{Dir: dir, Cert: cert, key: key, leafKey: lk, leaves: map[string]*tls.Certificate{}}, nil
}

// Leaf returns a certificate for host (a name or an IP address) signed by
// the CA: the host as its only SAN, server-auth usage, valid for
// LeafValidity from an hour ago; cached, and made again when less than a
// day is left.
func (c *CA) Leaf(host string) (*tls.Certificate, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return nil, errors.New("a certificate for no host")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.leaves[host]; ok && time.Until(l.Leaf.NotAfter) > 24*time.Hour {
		return l, nil
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{Organization: []string{"memtrace"}, CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(LeafValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.Cert, &c.leafKey.PublicKey, c.key)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	l := &tls.Certificate{Certificate: [][]byte{der, c.Cert.Raw}, PrivateKey: c.leafKey, Leaf: leaf}
	if len(c.leaves) >= 4096 {
		c.leaves = map[string]*tls.Certificate{}
	}
	c.leaves[host] = l
	return l, nil
}

// TLSConfig serves each connection the leaf of the name it asks for (SNI),
// or of addr's host without one.
func (c *CA) TLSConfig(fallback string) *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) {
			name := h.ServerName
			if name == "" {
				name = fallback
			}
			return c.Leaf(name)
		},
	}
}

func publicKeysEqual(a, b crypto.PublicKey) bool {
	type eq interface{ Equal(crypto.PublicKey) bool }
	e, ok := a.(eq)
	return ok && e.Equal(b)
}
