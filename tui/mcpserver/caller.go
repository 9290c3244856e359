package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/engine"
)

// The self-preference guard. A model judging its own work grades it up;
// the protocols keep an author out of judging seats (--author). When the
// agent calling arena is itself one of arena's agents (Claude Code is
// claude, Codex is codex, ...), what it hands arena to judge is most
// likely its own work: it is named the author unless the call names one,
// and the result says so.

// callerInfo is who is calling: the client's name and the arena agent it
// runs ("" when none of arena's).
type callerInfo struct {
	client string
	agent  string
	how    string // how the agent was told: by the client's name, or the install
}

// clientAgents map words of MCP clients' names to the agents they run:
// claude-code, codex-mcp-client, gemini-cli-mcp-client, qwen-code...
var clientAgents = []struct{ word, agent string }{
	{"claude", "claude"},
	{"codex", "codex"},
	{"gemini", "gemini"},
	{"qwen", "qwen"},
}

func (m *Manager) caller(req *mcp.CallToolRequest) callerInfo {
	var c callerInfo
	if info := req.ClientInfo(); info != nil {
		c.client = info.Name
	}
	agent, how := "", ""
	if m.cfg.Host != "" {
		agent, how = m.cfg.Host, "registered by arena install "+m.cfg.Host
	} else {
		name := strings.ToLower(c.client)
		for _, ca := range clientAgents {
			if strings.Contains(name, ca.word) {
				agent, how = ca.agent, fmt.Sprintf("the client calls itself %q", c.client)
				break
			}
		}
	}
	if agent != "" && slices.Contains(m.cfg.Agents, agent) {
		c.agent, c.how = agent, how
	}
	return c
}

// guard adjusts a call's input for the calling agent (the
// self-preference guard), as the tool's Guard says, and says what it did.
func guard(g engine.Guard, c callerInfo, in Input) []string {
	switch {
	case c.agent == "":
		return nil
	case g.Author != "":
		return guardAuthor(g, c, in)
	case g.Authors != "":
		return guardAuthors(c, in[g.Authors])
	case g.Against != "":
		return guardAgainst(c, in[g.Against])
	}
	return nil
}

// guardAuthor names the calling agent the author, unless the input names
// one.
func guardAuthor(g engine.Guard, c callerInfo, in Input) []string {
	author := str(in[g.Author])
	switch {
	case author != "" && author != c.agent:
		return []string{fmt.Sprintf("you are %s (%s); the author named is %s, so %s may hold a judging seat", c.agent, c.how, author, c.agent)}
	case author != "":
		return []string{fmt.Sprintf("you (%s) are named the author: you hold no judging seat", c.agent)}
	}
	in[g.Author] = c.agent
	var named []string
	for _, j := range g.Judges {
		named = append(named, str(in[j]))
		named = append(named, strs(in[j])...)
	}
	if slices.Contains(named, c.agent) {
		return []string{fmt.Sprintf("you are %s (%s), one of the seats the call names: %s judges as named, and the outcome says it is the author", c.agent, c.how, c.agent)}
	}
	return []string{fmt.Sprintf("you are %s (%s), and a model judging its own work grades it up: %s is kept out of the judging seats as the author (name another author to change it)", c.agent, c.how, c.agent)}
}

// guardAuthors says what it cannot decide: which candidate, if any, the
// calling agent wrote.
func guardAuthors(c callerInfo, authors any) []string {
	if slices.Contains(strs(authors), c.agent) {
		return nil
	}
	return []string{fmt.Sprintf("you are %s (%s): if you wrote one of the repositories, name each repository's author with authors, and no judge seat goes to an author's agent where another exists", c.agent, c.how)}
}

// guardAgainst says which seat the caller holds: a debate has no judging
// seat, and defending its own plan is what a caller asks a debate for.
func guardAgainst(c callerInfo, against any) []string {
	if slices.Contains(strs(against), c.agent) {
		return []string{fmt.Sprintf("you are %s (%s), and the call names you a challenger: you attack a position you may have given yourself", c.agent, c.how)}
	}
	return nil
}

// handsBoth says whether the calling host hands its model both a tool
// result's structured content (as JSON) and its text: Qwen Code 0.24
// does, unless a text is that very JSON (transformMcpContentToParts).
// Claude Code and Codex hand the structured content alone, Gemini CLI
// the text alone.
func (m *Manager) handsBoth(req mcp.Request) bool {
	host := m.cfg.Host
	if ss, ok := req.GetSession().(*mcp.ServerSession); host == "" && ok && ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			host = strings.ToLower(p.ClientInfo.Name)
		}
	}
	return strings.Contains(host, "qwen")
}

// oneDocument gives a host that hands its model both the structured
// result and the text (handsBoth) the outcome document once: in the
// text, as Markdown. The structured result leaves out outcome.content;
// outcome.document still names the file.
func (m *Manager) oneDocument(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if !ok || r == nil || !m.handsBoth(req) {
			return res, err
		}
		if raw, ok := r.StructuredContent.(json.RawMessage); ok {
			r.StructuredContent = withoutContent(raw)
		}
		return res, err
	}
}

// withoutContent is a structured result without outcome.content (and
// content_cut); as it was when it has none.
func withoutContent(raw json.RawMessage) json.RawMessage {
	var st map[string]json.RawMessage
	if json.Unmarshal(raw, &st) != nil || st["outcome"] == nil {
		return raw
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(st["outcome"], &o) != nil || o["content"] == nil {
		return raw
	}
	delete(o, "content")
	delete(o, "content_cut")
	b, err := json.Marshal(o)
	if err != nil {
		return raw
	}
	st["outcome"] = b
	if b, err = json.Marshal(st); err != nil {
		return raw
	}
	return b
}
