package main

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCACommand: memtrace ca makes the CA on first use and shows it, the
// same on a second call; export writes PEM or DER that parses as the CA's
// certificate; new makes another one.
func TestCACommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	code, out, stderr := runCmd(t, "", "ca", "--dir", dir)
	require.EqualValues(t, 0, code, stderr)
	require.Contains(t, out, "memtrace CA: "+dir)
	fp := out[strings.Index(out, "sha256:"):]
	fp = strings.TrimSpace(fp[len("sha256:"):strings.Index(fp, "\n")])
	require.Len(t, fp, 64)
	code, out2, _ := runCmd(t, "", "ca", "--dir", dir)
	require.EqualValues(t, 0, code)
	require.Equal(t, out, out2)
	code, pemOut, _ := runCmd(t, "", "ca", "--dir", dir, "export")
	require.EqualValues(t, 0, code)
	require.True(t, strings.HasPrefix(pemOut, "-----BEGIN CERTIFICATE-----"), pemOut)
	derFile := filepath.Join(t.TempDir(), "ca.crt")
	code, _, stderr = runCmd(t, "", "ca", "--dir", dir, "export", "--der", "-o", derFile)
	require.EqualValues(t, 0, code, stderr)
	der, err := os.ReadFile(derFile)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	require.True(t, cert.IsCA)
	code, out3, _ := runCmd(t, "", "ca", "--dir", dir, "new")
	require.EqualValues(t, 0, code)
	require.NotContains(t, out3, fp)
	// A key others may read is refused, saying so.
	require.NoError(t, os.Chmod(filepath.Join(dir, "ca-key.pem"), 0o644))
	code, _, stderr = runCmd(t, "", "ca", "--dir", dir)
	require.NotEqualValues(t, 0, code)
	require.Contains(t, stderr, "readable by others")
}
