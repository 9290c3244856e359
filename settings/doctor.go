package settings

import "github.com/arenadebate/arena/challengers"

// DoctorReport is arena doctor's verdict over all agents, as --json
// prints it.
type DoctorReport struct {
	Defender string   `json:"defender"`
	Ready    bool     `json:"ready"`
	Usable   []string `json:"usable_challengers"`
	// Kept are challengers whose --version gave no answer this time but
	// that answered on an earlier check: kept in the list, with why.
	Kept       map[string]string   `json:"kept,omitempty"`
	Saved      []CacheEntry        `json:"saved,omitempty"`
	CachePath  string              `json:"cache_path,omitempty"`
	CacheError string              `json:"cache_error,omitempty"`
	Checks     []challengers.Check `json:"checks"`
	// Billing is how each installed agent is billed, and why.
	Billing map[string]string `json:"billing,omitempty"`
	// Roles are the defender's and the configured challengers' roles.
	Roles map[string]string `json:"-"`
}

// Doctor is doctor's report on checks, with the list of usable
// challengers saved in env's cache (the list before keeps a challenger
// whose --version only timed out); a list that cannot be saved is said
// in CacheError.
func (s *Settings) Doctor(env Env, checks []challengers.Check, before []CacheEntry) DoctorReport {
	wasIn := map[string]bool{}
	for _, e := range before {
		wasIn[e.Name] = e.In
	}
	l := challengers.ListUsable(s.Defender, checks, wasIn)
	r := DoctorReport{Defender: s.Defender, Ready: l.Ready, Usable: l.Usable, Kept: l.Kept, Checks: checks,
		Billing: s.billing(checks), Roles: challengers.DoctorRoles(s.Defender, s.Challengers)}
	for _, e := range l.Entries {
		r.Saved = append(r.Saved, CacheEntry(e))
	}
	if err := SaveChallengerCache(env, r.Saved); err != nil {
		r.CacheError = err.Error()
	} else {
		r.CachePath, _ = ChallengerCachePath(env)
	}
	return r
}

// billing is doctor's account of how each installed agent is billed, and
// whether that is arena's guess from how its CLI is logged in or the
// config's word: it decides what a budget counts of its calls.
func (s *Settings) billing(checks []challengers.Check) map[string]string {
	out := map[string]string{}
	for _, c := range checks {
		if a, ok := s.Agents[c.Agent]; ok && c.Found {
			out[c.Agent] = string(a.Billing) + " (" + s.BillingSource(c.Agent) + ")"
		}
	}
	return out
}
