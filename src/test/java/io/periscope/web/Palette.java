package io.periscope.web;

import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.util.HashMap;
import java.util.Map;

/**
 * A screenshot in at most 256 colours: the most frequent ones kept as they are, every other pixel
 * drawn in the nearest of them. A page is mostly a few flat colours, so only the edges of letters
 * shift, and the PNG is a third of its size or less.
 */
final class Palette {
  private static final int SIZE = 256;

  private Palette() {}

  static BufferedImage of(BufferedImage image) {
    int width = image.getWidth();
    int height = image.getHeight();
    int[] pixels = image.getRGB(0, 0, width, height, null, 0, width);
    Map<Integer, Integer> counts = new HashMap<>();
    for (int p : pixels) counts.merge(p & 0xffffff, 1, Integer::sum);
    int[] palette =
        counts.entrySet().stream()
            .sorted(Map.Entry.<Integer, Integer>comparingByValue().reversed())
            .limit(SIZE)
            .mapToInt(Map.Entry::getKey)
            .toArray();
    byte[] r = new byte[palette.length];
    byte[] g = new byte[palette.length];
    byte[] b = new byte[palette.length];
    for (int i = 0; i < palette.length; i++) {
      r[i] = (byte) (palette[i] >> 16);
      g[i] = (byte) (palette[i] >> 8);
      b[i] = (byte) palette[i];
    }
    IndexColorModel model = new IndexColorModel(8, palette.length, r, g, b);
    BufferedImage indexed =
        new BufferedImage(width, height, BufferedImage.TYPE_BYTE_INDEXED, model);
    Map<Integer, Integer> nearest = new HashMap<>();
    byte[] row = new byte[width];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int rgb = pixels[y * width + x] & 0xffffff;
        row[x] = (byte) (int) nearest.computeIfAbsent(rgb, c -> closest(palette, c));
      }
      indexed.getRaster().setDataElements(0, y, width, 1, row);
    }
    return indexed;
  }

  private static int closest(int[] palette, int rgb) {
    int best = 0;
    long bestDistance = Long.MAX_VALUE;
    for (int i = 0; i < palette.length; i++) {
      int dr = ((palette[i] >> 16) & 0xff) - ((rgb >> 16) & 0xff);
      int dg = ((palette[i] >> 8) & 0xff) - ((rgb >> 8) & 0xff);
      int db = (palette[i] & 0xff) - (rgb & 0xff);
      long distance = 3L * dr * dr + 4L * dg * dg + 2L * db * db;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    return best;
  }
}
