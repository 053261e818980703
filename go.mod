module github.com/memtrace/memtrace

go 1.26
