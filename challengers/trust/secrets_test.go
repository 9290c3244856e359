package trust

import (
	"strings"
	"testing"
)

func TestLooksSecret(t *testing.T) {
	secret := map[string]string{
		".env":                 "",
		"config/.env.local":    "",
		"id_ed25519":           "",
		"deploy.pem":           "",
		".netrc":               "",
		"settings.py":          "AWS = 'AKIAIOSFODNN7EXAMPLE'\n",
		"ci.yml":               "x\ntoken: ghp_" + strings.Repeat("a", 36) + "\n",
		"notes.md":             "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"client.ts":            "const k = 'sk-ant-api03-" + strings.Repeat("x", 30) + "'",
		"gcp.json":             `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\n"}`,
		"app/config/keys.yaml": "google: AIza" + strings.Repeat("B", 35) + "\n",
	}
	for name, content := range secret {
		if LooksSecret(name, []byte(content)) == "" {
			t.Errorf("%s was not taken for a secret", name)
		}
	}
	if got := LooksSecret("ci.yml", []byte(secret["ci.yml"])); got != "it holds what looks like a GitHub token (line 2)" {
		t.Errorf("reason: %q", got)
	}
	plain := map[string]string{
		".env.example":   "KEY=\n",
		"main.go":        "package main // the key is read from $API_KEY\n",
		"id_ed25519.pub": "ssh-ed25519 AAAA... me@host\n",
		"README.md":      "Set OPENAI_API_KEY=sk-... in your shell.\n",
	}
	for name, content := range plain {
		if why := LooksSecret(name, []byte(content)); why != "" {
			t.Errorf("%s taken for a secret: %s", name, why)
		}
	}
}
