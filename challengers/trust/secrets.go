package trust

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Secrets. Whatever arena sends goes to three or four model vendors. A
// work tree often holds what must not: an .env file with API keys, a
// private key, a cloud credentials file, a token pasted into a config.
// Files that look like one are left out unless the person says otherwise
// (--include-secrets), and each is named with the reason.

// secretNames are file names (or patterns) that hold secrets by their
// nature.
var secretNames = []struct {
	match  func(base string) bool
	reason string
}{
	{func(b string) bool {
		if b == ".env" || b == ".envrc" {
			return true
		}
		if !strings.HasPrefix(b, ".env.") {
			return false
		}
		switch path.Ext(b) {
		case ".example", ".sample", ".template", ".dist", ".defaults":
			return false // a template of one, committed on purpose
		}
		return true
	}, "an environment file (.env*), where keys live"},
	{func(b string) bool {
		switch b {
		case "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk":
			return true
		}
		return false
	}, "an SSH private key"},
	{func(b string) bool {
		switch path.Ext(b) {
		case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".asc", ".gpg", ".ppk":
			return true
		}
		return false
	}, "a key or certificate store"},
	{func(b string) bool {
		switch b {
		case ".netrc", "_netrc", ".pgpass", ".htpasswd", "credentials", "credentials.json", ".git-credentials",
			"service-account.json", ".pypirc", ".dockercfg", "secrets.yml", "secrets.yaml", "secrets.json":
			return true
		}
		return false
	}, "a credentials file"},
}

// secretPatterns are what common keys and tokens look like.
var secretPatterns = []struct {
	re     *regexp.Regexp
	reason string
}{
	{regexp.MustCompile(`-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----`), "a private key"},
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), "an AWS access key"},
	{regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,}\b`), "a GitHub token"},
	{regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{40,}\b`), "a GitHub token"},
	{regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`), "a GitLab token"},
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`), "a Slack token"},
	{regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), "an Anthropic API key"},
	{regexp.MustCompile(`\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}`), "an OpenAI API key"},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), "a Google API key"},
	{regexp.MustCompile(`\b[rs]k_live_[0-9a-zA-Z]{20,}\b`), "a Stripe live key"},
	{regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), "an npm token"},
	{regexp.MustCompile(`_authToken\s*=\s*\S{8,}`), "an npm registry token"},
	{regexp.MustCompile(`"private_key"\s*:\s*"-----BEGIN`), "a service account key"},
}

// LooksSecret says why the file name (a path; its base name counts) with
// this content looks like a secret, or "" when it does not.
func LooksSecret(name string, content []byte) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	for _, n := range secretNames {
		if n.match(base) {
			return n.reason
		}
	}
	for _, p := range secretPatterns {
		if loc := p.re.FindIndex(content); loc != nil {
			line := 1 + strings.Count(string(content[:loc[0]]), "\n")
			return "it holds what looks like " + p.reason + " (line " + strconv.Itoa(line) + ")"
		}
	}
	return ""
}
