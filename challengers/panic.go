package challengers

import (
	"fmt"
	"runtime/debug"
)

// A Panic is a panic caught in one of arena's goroutines, with the stack
// where it happened, so that it can be raised again where it is handled:
// a goroutine's panic otherwise kills arena at once, with the terminal
// still raw and no outcome in the log. engine.Run turns the one that
// reaches it into an aborted outcome that says what failed.
type Panic struct {
	Value any
	Stack string
	// Where names what panicked ("a parallel ask", "the log writer"),
	// when a catcher knows better than the stack.
	Where string
}

func (p *Panic) Error() string {
	if p.Where != "" {
		return fmt.Sprintf("%s panicked: %v", p.Where, p.Value)
	}
	return fmt.Sprintf("panic: %v", p.Value)
}

// Catch runs f and returns the panic it raised, or nil. A *Panic raised
// again keeps its first stack.
func Catch(f func()) (p *Panic) {
	defer func() {
		if r := recover(); r != nil {
			p = AsPanic(r)
		}
	}()
	f()
	return nil
}

// AsPanic is a recovered value as a *Panic; call it in the deferred
// function that recovered it, so the stack is the panic's own.
func AsPanic(r any) *Panic {
	if p, ok := r.(*Panic); ok {
		return p
	}
	return &Panic{Value: r, Stack: string(debug.Stack())}
}
