// Package flakynet is a TCP relay for tests that cuts its connections:
// a network that drops, for clients that must resume (the collector's
// Node and browser clients).
package flakynet

import (
	"io"
	"math/rand"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// Relay forwards connections on a loopback address to a target.
type Relay struct {
	Addr string       // where it listens (host:port)
	Cuts atomic.Int32 // connections cut so far
}

// Start relays connections to target. Each of the first cuts connections
// is cut, both ways, after a random number of the client's bytes (from
// min to min+spread, seed fixed); later ones are relayed whole. The relay
// stops when the test ends.
func Start(t testing.TB, target string, min, spread int64, cuts int32) *Relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{Addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	rng := rand.New(rand.NewSource(7))
	var started int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			limit := int64(-1)
			if started < cuts {
				limit = min + rng.Int63n(spread)
				started++
			}
			wg.Add(2)
			go func() {
				defer wg.Done()
				defer up.Close()
				defer c.Close()
				if limit < 0 {
					io.Copy(up, c)
					return
				}
				if n, _ := io.CopyN(up, c, limit); n == limit {
					r.Cuts.Add(1)
				}
			}()
			go func() {
				defer wg.Done()
				io.Copy(c, up)
				c.Close()
			}()
		}
	}()
	return r
}
