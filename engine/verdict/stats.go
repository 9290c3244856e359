package verdict

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Stats summarise a verdict log.
type Stats struct {
	Records int `json:"records"` // valid lines read
	// Invalid lists the lines that are not valid records ("line 7: ...").
	Invalid []string `json:"invalid,omitempty"`
	// PerModel counts each model's verdicts: model → verdict → n.
	PerModel map[string]map[Verdict]int `json:"per_model"`
	// QuickDeep is how many runs had both a quick and a deep verdict, and
	// Agreed how many of them the same one.
	QuickDeep int `json:"quick_and_deep"`
	Agreed    int `json:"agreed"`
	// Finals counts the final decisions; Escalations is Finals["escalate"].
	Finals      map[string]int `json:"finals"`
	Escalations int            `json:"escalations"`
}

// AgreementRate is Agreed/QuickDeep, 0 when no run had both.
func (s Stats) AgreementRate() float64 {
	if s.QuickDeep == 0 {
		return 0
	}
	return float64(s.Agreed) / float64(s.QuickDeep)
}

// ReadStats reads a verdict log. Every line is checked against the
// schema; one that fails is listed in Invalid and left out.
func ReadStats(r io.Reader) (Stats, error) {
	st := Stats{PerModel: map[string]map[Verdict]int{}, Finals: map[string]int{}}
	byRun := map[string]map[Mode]Verdict{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if err := ValidateRecord(line); err != nil {
			st.Invalid = append(st.Invalid, fmt.Sprintf("line %d: %v", n, err))
			continue
		}
		st.Records++
		var head struct {
			RunID   string `json:"run_id"`
			Model   string `json:"model"`
			Mode    string `json:"mode"`
			Verdict string `json:"verdict"`
		}
		_ = json.Unmarshal(line, &head) // valid against the schema
		if head.Mode == ModeFinal {
			st.Finals[head.Verdict]++
			continue
		}
		if st.PerModel[head.Model] == nil {
			st.PerModel[head.Model] = map[Verdict]int{}
		}
		st.PerModel[head.Model][Verdict(head.Verdict)]++
		if byRun[head.RunID] == nil {
			byRun[head.RunID] = map[Mode]Verdict{}
		}
		byRun[head.RunID][Mode(head.Mode)] = Verdict(head.Verdict)
	}
	if err := sc.Err(); err != nil {
		return st, err
	}
	for _, run := range byRun {
		q, okQ := run[Quick]
		d, okD := run[Deep]
		if okQ && okD {
			st.QuickDeep++
			if q == d {
				st.Agreed++
			}
		}
	}
	st.Escalations = st.Finals[string(Escalate)]
	return st, nil
}

// Text is the summary as a person reads it.
func (s Stats) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records\n\nVerdicts per model:\n", s.Records)
	models := make([]string, 0, len(s.PerModel))
	for m := range s.PerModel {
		models = append(models, m)
	}
	sort.Strings(models)
	if len(models) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, m := range models {
		c := s.PerModel[m]
		fmt.Fprintf(&b, "  %-24s accept %d · improve %d · reject %d\n", m, c[Accept], c[Improve], c[Reject])
	}
	if s.QuickDeep == 0 {
		b.WriteString("\nQuick/deep agreement: no run had both\n")
	} else {
		fmt.Fprintf(&b, "\nQuick/deep agreement: %d of %d runs (%.0f%%)\n", s.Agreed, s.QuickDeep, 100*s.AgreementRate())
	}
	var finals []string
	for _, k := range []string{"accept", "improve", "reject", "escalate", "aborted", "interrupted"} {
		if n := s.Finals[k]; n > 0 {
			finals = append(finals, fmt.Sprintf("%s %d", k, n))
		}
	}
	fmt.Fprintf(&b, "Final decisions: %s\nEscalations: %d\n", orNone(strings.Join(finals, " · ")), s.Escalations)
	for _, l := range s.Invalid {
		fmt.Fprintf(&b, "invalid: %s\n", l)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
