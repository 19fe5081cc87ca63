package io.periscope.testing;

/**
 * JUnit category of the tests that need a PostgreSQL server ({@link TestPostgres}): the {@code
 * no-services} profile leaves them out, and in that run {@link TestPostgres} fails any test that
 * reaches for the server without being marked.
 */
public interface NeedsPostgres {}
