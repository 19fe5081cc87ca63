package io.periscope.source;

import io.periscope.entity.JsonSerializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a watch saw of a page at its last collection: the text blocks in page order and the
 * validators for a conditional request. Bounded: at most {@link #MAX_BLOCKS} blocks of at most
 * {@link #MAX_BLOCK_CHARS} characters, {@link #MAX_CHARS} in all; what a page holds past that is
 * not watched. {@code etag} and {@code lastModified} may be null.
 */
public record PageSnapshot(List<Block> blocks, String etag, String lastModified)
    implements JsonSerializable {
  public static final int MAX_BLOCKS = 400;
  public static final int MAX_BLOCK_CHARS = 2_000;
  public static final int MAX_CHARS = 24_000;

  /**
   * One block of text (a paragraph, a list item, a table row, a heading...), whitespace collapsed;
   * {@code anchor} is the id of the block or of its nearest ancestor that has one, else null.
   */
  public record Block(String text, String anchor) implements JsonSerializable {}

  public PageSnapshot {
    blocks = blocks == null ? List.of() : List.copyOf(blocks);
  }

  /** The first blocks of {@code all} within the bounds, each cut to {@link #MAX_BLOCK_CHARS}. */
  public static List<Block> bounded(List<Block> all) {
    List<Block> kept = new ArrayList<>();
    int chars = 0;
    for (Block b : all) {
      String text = ItemBounds.cut(b.text(), MAX_BLOCK_CHARS);
      if (kept.size() == MAX_BLOCKS || chars + text.length() > MAX_CHARS) break;
      kept.add(new Block(text, b.anchor()));
      chars += text.length();
    }
    return kept;
  }

  /** The characters of text the snapshot holds. */
  public int chars() {
    return blocks.stream().mapToInt(b -> b.text().length()).sum();
  }
}
