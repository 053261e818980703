package main

import (
	"fmt"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/proxy/ca"
)

// newCmdCA is memtrace ca: where memtrace's certificate authority is, its
// certificate exported, a new one made (the proxy's HTTPS interception).
func newCmdCA(ios *IOStreams) *cobra.Command {
	var dir string
	// open loads the CA (making it on first use), or with renew makes a
	// new one.
	open := func(renew bool) (*ca.CA, error) {
		d := dir
		if d == "" {
			var err error
			if d, err = ca.DefaultDir(); err != nil {
				return nil, err
			}
		}
		if renew {
			return ca.Create(d)
		}
		return ca.LoadOrCreate(d)
	}
	cmd := &cobra.Command{
		Use:   "ca [--dir DIR]",
		Short: "Show memtrace's certificate authority (made on first use), export it, make a new one",
		Long: heredoc.Doc(`
			memtrace's own certificate authority signs the certificates with which
			the proxy intercepts HTTPS. It is made on first use in the user's config
			directory (memtrace/ca: ca.pem, and ca-key.pem, readable by its owner
			only), unique to this installation. memtrace ca prints where it is, its
			SHA-256 fingerprint, its public key's hash (for a browser profile that
			trusts it alone) and until when it is valid.
		`),
		Example: examples(`
			$ memtrace ca
			$ memtrace ca export --der -o memtrace-ca.crt
			$ memtrace ca new
		`),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(false)
			if err != nil {
				return err
			}
			printCA(ios, c)
			return nil
		},
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "the CA's `DIR` (default: memtrace/ca in the user's config directory)")
	var der bool
	var out string
	export := &cobra.Command{
		Use:   "export [--der] [-o FILE]",
		Short: "Write the CA's certificate (PEM, or DER with --der) to standard output or FILE",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(false)
			if err != nil {
				return err
			}
			b := c.PEM()
			if der {
				b = c.DER()
			}
			return writeOutput(ios, out, b)
		},
	}
	export.Flags().BoolVar(&der, "der", false, "DER (binary), as Android and iOS take it, instead of PEM")
	export.Flags().StringVarP(&out, "output", "o", "", "write to `FILE` (default, or -: standard output)")
	renew := &cobra.Command{
		Use:   "new",
		Short: "Make a new CA (the old one kept as ca.pem.old and ca-key.pem.old): devices that trusted the old one must trust the new one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(true)
			if err != nil {
				return err
			}
			printCA(ios, c)
			return nil
		},
	}
	cmd.AddCommand(export, renew)
	return cmd
}

func printCA(ios *IOStreams, c *ca.CA) {
	fmt.Fprintf(ios.Out, "memtrace CA: %s\n", c.Dir)
	fmt.Fprintf(ios.Out, "  subject:     %s\n", c.Cert.Subject.CommonName)
	fmt.Fprintf(ios.Out, "  sha256:      %s\n", c.Fingerprint())
	fmt.Fprintf(ios.Out, "  public key:  %s (sha256, base64)\n", c.SPKIHash())
	fmt.Fprintf(ios.Out, "  valid until: %s\n", c.Cert.NotAfter.UTC().Format("2006-01-02"))
}
