package io.periscope.logging;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A log line of the service's {@code key=value} form read back into its fields: {@code key=word} or
 * {@code key="quoted \"text\""}, keys of letters, digits, '.', '_' and '-'. What is not a pair
 * (free text, a pair with an empty key) is kept, in order, as {@link #text()}.
 */
record KeyValueLine(Map<String, String> fields, String text) {
  static KeyValueLine parse(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    StringBuilder text = new StringBuilder();
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && line.charAt(i) == ' ') i++;
      int start = i;
      int keyEnd = i;
      while (keyEnd < n && isKeyChar(line.charAt(keyEnd))) keyEnd++;
      if (keyEnd > start && keyEnd < n && line.charAt(keyEnd) == '=') {
        String key = line.substring(start, keyEnd);
        int valueStart = keyEnd + 1;
        if (valueStart < n && line.charAt(valueStart) == '"') {
          StringBuilder value = new StringBuilder();
          int j = valueStart + 1;
          while (j < n && line.charAt(j) != '"') {
            if (line.charAt(j) == '\\' && j + 1 < n) j++;
            value.append(line.charAt(j++));
          }
          fields.put(key, value.toString());
          i = Math.min(j + 1, n);
        } else {
          int j = valueStart;
          while (j < n && line.charAt(j) != ' ') j++;
          fields.put(key, line.substring(valueStart, j));
          i = j;
        }
      } else {
        int j = i;
        while (j < n && line.charAt(j) != ' ') j++;
        if (j > start) {
          if (text.length() > 0) text.append(' ');
          text.append(line, start, j);
        }
        i = j;
      }
    }
    return new KeyValueLine(fields, text.toString());
  }

  private static boolean isKeyChar(char c) {
    return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-';
  }
}
