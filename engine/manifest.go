package engine

// A manifest says, before any model is called, what a run would send out
// of the machine: for each seat, the material it will receive, by name
// and size (arena --dry-run). Every model vendor a seat's CLI talks to
// gets what its seat receives.

// Manifest is what a run would send, seat by seat.
type Manifest struct {
	Protocol string         `json:"protocol"`
	Title    string         `json:"title"`
	Seats    []ManifestSeat `json:"seats"`
	// LeftOut is what was read or found but will not be sent, and why
	// ("config.go: looks like a secret: ...").
	LeftOut []string `json:"left_out,omitempty"`
	// Notes say what else is sent later in the run, as it is made (the
	// other seats' replies, arena's measurements).
	Notes []string `json:"notes,omitempty"`
}

// ManifestSeat is one seat's share.
type ManifestSeat struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	// Family is the vendor family of the agent's model ("" when not
	// known): whose model the seat's material goes to.
	Family string          `json:"family,omitempty"`
	Role   Role            `json:"role"`
	Inputs []ManifestInput `json:"inputs"`
}

// ManifestInput is one piece of material a seat receives: a file, the
// topic, a repository's copy.
type ManifestInput struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	// Files counts the files of a directory sent as a whole (a
	// repository's copy a seat works in); 0 for a single text.
	Files int `json:"files,omitempty"`
}

// Bytes is the total a seat receives.
func (s ManifestSeat) Bytes() int64 {
	var n int64
	for _, in := range s.Inputs {
		n += in.Bytes
	}
	return n
}

// Manifester is a protocol whose seats receive different material, or
// more than its start event names: it says so itself.
type Manifester interface {
	Manifest() Manifest
}

// ManifestOf is p's manifest: its own, or, for a protocol that sends every
// seat the same, the topic and context files its start event names.
func ManifestOf(p Protocol) Manifest {
	if m, ok := p.(Manifester); ok {
		return m.Manifest()
	}
	return StartManifest(p.Start())
}

// StartManifest is the manifest of a run whose every seat receives the
// topic and the context files of its start event.
func StartManifest(st DebateStarted) Manifest {
	m := Manifest{Protocol: st.Protocol, Title: st.Title}
	inputs := []ManifestInput{{Name: "the topic", Bytes: int64(len(st.Topic))}}
	for _, c := range st.Context {
		inputs = append(inputs, ManifestInput{Name: c.Name, Bytes: int64(c.Bytes)})
	}
	families := map[string]string{}
	for _, a := range st.Agents {
		families[a.Name] = a.Family
	}
	for _, s := range st.Seats {
		m.Seats = append(m.Seats, ManifestSeat{Seat: s.Name, Agent: s.Agent, Family: families[s.Agent], Role: s.Role, Inputs: inputs})
	}
	if len(st.Seats) > 1 {
		m.Notes = append(m.Notes, "Later prompts also carry what other seats replied earlier in the run.")
	}
	return m
}
