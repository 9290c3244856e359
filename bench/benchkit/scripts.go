package benchkit

import (
	"strings"

	"github.com/arenadebate/arena/challengers/clitest"
)

// TradeoffScript makes a debate that goes the whole five rounds
// without any model taking time: gemini disagrees strongly and maintains
// its objection every round, claude rejects it every round (and accepts
// the others' minor points in round 1), so the debate ends in assumption
// extraction and a tradeoff. Every fake answers at once (no pause between
// chunks).
func TradeoffScript() *clitest.Script {
	const critique = `{
  "verdict": "disagree",
  "critique": "Every request writes its session row; on Postgres that is WAL, vacuum and replica lag on the hottest path.",
  "evidence": "The login path writes a session 12k times a second at peak.",
  "alternative": "Keep sessions in Redis with a TTL; move only the audit trail.",
  "confidence": "high",
  "objection_strength": "strong",
  "assumptions_challenged": ["session writes are rare"]
}`
	const maintain = `{"choice": "maintain", "explanation": "Nothing in the answer changes the write rate; Postgres will carry it on the primary."}`
	answer := func(names ...string) string {
		var rs []string
		for _, n := range names {
			d := "accept"
			if n == "gemini" {
				d = "reject"
			}
			rs = append(rs, `{"challenger": "`+n+`", "decision": "`+d+`", "explanation": "`+d+`ed: the measured write rate is a tenth of that."}`)
		}
		return `{"responses": [` + strings.Join(rs, ", ") + `], "updated_position": "Move sessions to Postgres, partitioned by day; keep Redis for rate limits."}`
	}
	const instant = -1 // no pause at all between chunks
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {DelayMS: instant, Steps: map[string][]clitest.Step{
			string(clitest.KindAnswer): {{Reply: answer("gemini", "codex", "qwen")}, {Reply: answer("gemini")}},
		}},
		"gemini": {DelayMS: instant, Steps: map[string][]clitest.Step{
			string(clitest.KindCritique): {{Reply: critique}},
			string(clitest.KindRebuttal): {{Reply: maintain}},
		}},
		"codex": {DelayMS: instant},
		"qwen":  {DelayMS: instant},
	}}
}
