package io.periscope.source;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.DeltaType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What was added or changed between two collections of a page, block by block (a Myers difference
 * over the blocks' texts). A changed run of blocks pairs its old and new blocks in order; new
 * blocks past the old ones are added. Blocks only removed make no change, nor does a block whose
 * text was on the page before (moved, reordered): what a watch looks for is what appeared.
 */
public final class PageChanges {
  private PageChanges() {}

  /**
   * One change: {@code before} is the block's old text, null for an added block; {@code now} the
   * block as it reads now.
   */
  public record Change(String before, PageText.Found now) {}

  public static List<Change> between(List<PageSnapshot.Block> before, List<PageText.Found> now) {
    List<String> oldTexts = before.stream().map(PageSnapshot.Block::text).toList();
    List<String> newTexts = now.stream().map(PageText.Found::text).toList();
    Set<String> known = new HashSet<>(oldTexts);
    List<Change> changes = new ArrayList<>();
    for (AbstractDelta<String> delta : DiffUtils.diff(oldTexts, newTexts).getDeltas()) {
      if (delta.getType() == DeltaType.DELETE || delta.getType() == DeltaType.EQUAL) continue;
      List<String> gone = delta.getSource().getLines();
      int at = delta.getTarget().getPosition();
      int count = delta.getTarget().size();
      for (int i = 0; i < count; i++) {
        if (known.contains(newTexts.get(at + i))) continue;
        String was = delta.getType() == DeltaType.CHANGE && i < gone.size() ? gone.get(i) : null;
        changes.add(new Change(was, now.get(at + i)));
      }
    }
    return changes;
  }
}
