package engine

import "testing"

func TestNormKey(t *testing.T) {
	for in, want := range map[string]string{
		"objection_strength": "objection_strength", "Objection Strength": "objection_strength",
		"objection-strength": "objection_strength", "objectionStrength": "objection_strength",
		"VERDICT": "verdict", "WhyDisagree": "why_disagree", " verdict ": "verdict",
	} {
		if got := NormKey(in); got != want {
			t.Errorf("NormKey(%q) = %q, want %q", in, got, want)
		}
	}
}
