// Package repotest holds tests of the repository itself (its Makefile
// against its sources); it has no code.
package repotest
