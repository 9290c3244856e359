package settings

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// Row is one line of `arena config`.
type Row struct {
	Key    string // "max_rounds", or "agents.NAME"
	Value  string
	Source string
}

// Rows lists the effective settings with their sources: the top-level keys
// in a fixed order, then one row per agent (built-ins, then custom ones).
// Agent rows show environment variable names only, never their values,
// which may be secrets.
func (s *Settings) Rows() []Row {
	rows := []Row{
		{keyDefender, s.Defender, ""},
		{keyChallengers, strings.Join(s.Challengers, ", "), ""},
		{keyMaxRounds, strconv.Itoa(s.MaxRounds), ""},
		{keyTimeoutPerCLI, formatDuration(s.TimeoutPerCLI), ""},
		{keyOutputCap, formatSize(s.OutputCap), ""},
		{keySaveLogs, strconv.FormatBool(s.SaveDebateLogs), ""},
		{keyLogPath, s.DebateLogPath, ""},
		{keySkeptical, strconv.FormatBool(s.SkepticalOfEarlyAgreement), ""},
		{keyShadowGate, strconv.FormatBool(s.ShadowEscalationGate), ""},
	}
	if len(s.Challengers) == 0 {
		rows[1].Value = "(none)"
	}
	for i := range rows {
		rows[i].Source = s.Source(rows[i].Key)
	}
	rows = append(rows, s.minFamiliesRow())
	rows = append(rows, s.budgetRows()...)
	for _, name := range s.agentNames() {
		key := keyAgents + "." + name
		rows = append(rows, Row{key, s.describeAgent(name), s.Source(key)})
	}
	return rows
}

// describeAgent summarises an agent on one line.
func (s *Settings) describeAgent(name string) string {
	a := s.Agents[name]
	timeout := formatDuration(a.Timeout)
	if why := s.agents[name].timeout; why != "" {
		timeout += " (" + why + ")"
	}
	parts := []string{
		commandLine(append(slices.Clone(a.Command), a.Args...)),
		"prompt " + string(a.Prompt),
		"format " + string(a.Format),
		"timeout " + timeout,
		"pty " + strconv.FormatBool(a.PTY),
	}
	if a.IsAPI() {
		// The key's variable by name only: its value is a secret.
		parts = []string{"api " + string(a.API), "base_url " + challengers.RedactURL(a.BaseURL), "model " + a.Model, "key_env " + cmp.Or(a.KeyEnv, "(none)"), "timeout " + timeout}
	}
	family := "family " + challengers.Family(a)
	if a.Family == "" {
		family += " (" + challengers.FamilySource(a) + ")"
	}
	parts = append(parts, family)
	if len(a.Env) > 0 {
		parts = append(parts, "env "+strings.Join(slices.Sorted(maps.Keys(a.Env)), ","))
	}
	if a.Dir != "" {
		parts = append(parts, "dir "+a.Dir)
	}
	if a.OutputCap != s.OutputCap {
		parts = append(parts, "output_cap "+formatSize(a.OutputCap))
	}
	if a.Billing != "" {
		billing := "billing " + string(a.Billing)
		if why := s.agents[name].billing; why != "" {
			billing += " (" + why + ")"
		}
		parts = append(parts, billing)
	}
	return strings.Join(parts, "; ")
}

// commandLine joins an argv, quoting only the elements a reader could not
// otherwise tell apart. Placeholders such as {prompt} are shown as is.
func commandLine(argv []string) string {
	out := make([]string, len(argv))
	for i, arg := range argv {
		out[i] = arg
		if arg == "" || strings.ContainsAny(arg, " \t\n\"'\\;") {
			out[i] = strconv.Quote(arg)
		}
	}
	return strings.Join(out, " ")
}

// agentKey splits "agents.NAME".
func agentKey(key string) (string, bool) {
	return strings.CutPrefix(key, keyAgents+".")
}
