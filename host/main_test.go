package host_test

// testKey chains the logs of the tests' stores.
var testKey = []byte("memgov-test-key-0123456789abcdef")
