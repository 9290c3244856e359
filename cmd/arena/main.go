// Command arena is a terminal debate arena for AI models: a defender model
// takes a position, challenger models attack it in parallel, and a protocol
// drives them to a consensus or a documented tradeoff.
package main

import (
	"os"
)

func main() {
	os.Exit(newApp(os.Stdin, os.Stdout, os.Stderr).execute(os.Args[1:]))
}
