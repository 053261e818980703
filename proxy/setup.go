package proxy

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/memtrace/memtrace/collector"
)

// SetupPath is the set-up page on every origin the proxy serves (and at
// the proxy's own address, at / too): memtrace's CA in the form the
// visitor's platform takes, the steps to trust it, and a check that an
// HTTPS page loads through the proxy.
const SetupPath = collector.Prefix + "setup"

// CheckPath answers the set-up page's check (on any origin, over HTTPS
// intercepted with the CA: a browser that trusts the CA gets it).
const CheckPath = collector.Prefix + "check"

// CheckHost is the host of the set-up page's check: a name that never
// resolves (.invalid), which only the proxy answers, by CONNECT.
const CheckHost = "check.memtrace.invalid"

// platform is what the set-up page tells by the user agent.
func platform(ua string) string {
	switch {
	case strings.Contains(ua, "Android"):
		return "android"
	case strings.Contains(ua, "iPhone"), strings.Contains(ua, "iPad"), strings.Contains(ua, "iPod"):
		return "ios"
	case strings.Contains(ua, "Macintosh") && strings.Contains(ua, "Mobile/"):
		return "ios" // an iPad that asks for desktop pages
	case strings.Contains(ua, "Macintosh"):
		return "macos"
	case strings.Contains(ua, "Windows"):
		return "windows"
	default:
		return "linux"
	}
}

var setupPage = template.Must(template.New("setup").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>memtrace proxy: set-up</title>
<style>
 body { font: 16px/1.5 system-ui, sans-serif; max-width: 42em; margin: 1em auto; padding: 0 1em; color: #1b1b1b; background: #fff; }
 @media (prefers-color-scheme: dark) { body { color: #e8e8e8; background: #141414; } a { color: #8ab4f8; } }
 .here { border-left: 4px solid #2a7; padding-left: 1em; }
 code { font-size: 90%; }
 #check[data-state=ok] { color: #2a7; } #check[data-state=fail] { color: #c33; }
 .button { display: inline-block; padding: .5em 1em; border: 1px solid; border-radius: .4em; text-decoration: none; }
</style></head><body>
<h1>memtrace proxy</h1>
<p>This device reaches memtrace proxy. To trace pages it loads over HTTPS, it must trust
memtrace's certificate authority (SHA-256 fingerprint <code>{{.Fingerprint}}</code>), made on the
machine that runs memtrace and unique to it. Trust it only on devices you use for testing, and
remove it when you are done.</p>
<p id="platform" data-platform="{{.Platform}}">This looks like <b>{{.PlatformName}}</b>.</p>

<section id="android"{{if eq .Platform "android"}} class="here"{{end}}>
<h2>Android</h2>
<p><a class="button" id="ca-android" href="{{.DER}}" download="memtrace-ca.crt">Download the certificate (memtrace-ca.crt)</a></p>
<ol>
<li>Open <i>Settings → Security and privacy → More security settings → Encryption and credentials →
Install a certificate → CA certificate</i> (names vary by maker), choose <i>Install anyway</i>, and pick
<code>memtrace-ca.crt</code> from Downloads.</li>
<li>Chrome trusts it at once. <b>Firefox</b> needs one switch more: <i>Settings → About Firefox</i>, tap
the logo five times, then <i>Settings → Secret settings → Use third party CA certificates</i>.</li>
<li>Set the proxy: <i>Settings → Network → Wi-Fi</i>, long-press the network, <i>Modify → Advanced →
Proxy: Manual</i>, host <code>{{.Host}}</code>, port <code>{{.Port}}</code>.</li>
</ol>
</section>

<section id="ios"{{if eq .Platform "ios"}} class="here"{{end}}>
<h2>iPhone and iPad</h2>
<p><a class="button" id="ca-ios" href="{{.DER}}">Download the profile (memtrace-ca.crt)</a> (in Safari)</p>
<ol>
<li>Open <i>Settings → General → VPN and Device Management</i>, tap the downloaded profile and
<i>Install</i> it.</li>
<li>Then turn on <b>full trust</b> for it: <i>Settings → General → About → Certificate Trust
Settings</i>, switch on <i>memtrace</i>. Without this switch, HTTPS pages fail.</li>
<li>Set the proxy: <i>Settings → Wi-Fi</i>, tap (i) beside the network, <i>Configure Proxy →
Manual</i>, server <code>{{.Host}}</code>, port <code>{{.Port}}</code>.</li>
</ol>
</section>

<section id="desktop"{{if or (eq .Platform "macos") (eq .Platform "windows") (eq .Platform "linux")}} class="here"{{end}}>
<h2>Desktops</h2>
<p><a class="button" id="ca-pem" href="{{.PEM}}" download="memtrace-ca.pem">Download the certificate (PEM)</a>
<a class="button" href="{{.DER}}" download="memtrace-ca.crt">(DER)</a></p>
<ul>
<li>Easiest: <code>memtrace proxy --open URL</code> starts Chromium with a profile of its own that
trusts the CA for that profile only: nothing to install.</li>
<li><b>Chrome, Edge</b> on Windows: open the .crt, <i>Install Certificate → Current User → Trusted Root
Certification Authorities</i>. On macOS: open it in Keychain Access, then <i>Trust → Always Trust</i>.
On Linux: <i>Settings → Privacy and security → Security → Manage certificates → Authorities →
Import</i>.</li>
<li><b>Firefox</b>: <i>Settings → Privacy &amp; Security → Certificates → View Certificates →
Authorities → Import</i>, and tick <i>Trust this CA to identify websites</i>.</li>
</ul>
</section>

<h2>Check</h2>
<p id="check" data-state="pending">Checking whether an HTTPS page loads through memtrace proxy…</p>
<p><button id="again" type="button">Check again</button></p>
<script nonce="{{.Nonce}}">
(function () {
  var el = document.getElementById('check');
  function check() {
    el.dataset.state = 'pending';
    el.textContent = 'Checking whether an HTTPS page loads through memtrace proxy…';
    fetch('https://{{.CheckHost}}{{.CheckPath}}', { cache: 'no-store' })
      .then(function (r) { return r.json(); })
      .then(function (j) {
        el.dataset.state = j.ok ? 'ok' : 'fail';
        el.textContent = j.ok ? 'HTTPS through memtrace proxy works: open your app and use it; each page load is a trace.' : 'Unexpected answer.';
      }, function () {
        el.dataset.state = 'fail';
        el.textContent = 'HTTPS does not load through memtrace proxy yet: is the proxy set, and the certificate trusted (fully, on iOS)?';
      });
  }
  document.getElementById('again').addEventListener('click', check);
  check();
})();
</script>
</body></html>
`))

// serveSetup serves the set-up page; host is how the visitor reached the
// proxy (host:port).
func (p *Proxy) serveSetup(w http.ResponseWriter, r *http.Request, host string) {
	if p.o.CA == nil {
		http.Error(w, "memtrace proxy: no CA", http.StatusNotFound)
		return
	}
	h, port := host, "80"
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		h, port = host[:i], host[i+1:]
	}
	pl := platform(r.UserAgent())
	names := map[string]string{"android": "an Android device", "ios": "an iPhone or iPad", "macos": "a Mac", "windows": "a Windows PC", "linux": "a Linux desktop"}
	nonce := newNonce()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", fmt.Sprintf("default-src 'self'; script-src 'nonce-%s'; style-src 'unsafe-inline'; connect-src 'self' https://%s", nonce, CheckHost))
	setupPage.Execute(w, map[string]string{
		"Fingerprint": p.o.CA.Fingerprint(), "Platform": pl, "PlatformName": names[pl],
		"PEM": CAPEMPath, "DER": CADERPath, "Host": h, "Port": port, "Nonce": nonce,
		"CheckHost": CheckHost, "CheckPath": CheckPath,
	})
}

// serveCheck answers the set-up page's check.
func serveCheck(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"ok":%v}`, r.TLS != nil)
}
