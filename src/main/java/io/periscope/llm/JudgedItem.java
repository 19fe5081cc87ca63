package io.periscope.llm;

import io.periscope.entity.JsonSerializable;
import java.time.Instant;

/**
 * One item as it was put before the model: its key (the identity its watch records it seen by),
 * title, URL, source ({@code type:value}), trust tier, publication time, the excerpt of the text
 * the prompt carried (at most {@link Judged#EXCERPT_CHARS} characters) and whether the verdict
 * cited it. Any field but {@code key} may be null.
 */
public record JudgedItem(
    String key,
    String title,
    String url,
    String source,
    String trust,
    Instant published,
    String excerpt,
    boolean cited)
    implements JsonSerializable {}
