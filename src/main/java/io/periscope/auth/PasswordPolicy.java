package io.periscope.auth;

import io.periscope.json.Issue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a password must be, for every account however it is made (registration, reset, admins, the
 * command line): {@value Passwords#MIN_LENGTH} to {@value Passwords#MAX_LENGTH} characters, not a
 * common password, and not the account's e-mail address in disguise. Length beats composition rules
 * (NIST SP 800-63B), so there are none: a long phrase of lower-case words passes.
 *
 * <p>A password is common when the list in {@code common-passwords.txt} holds it, lower-cased, or
 * holds what is left once leading and trailing digits and symbols are stripped ({@code Summer2024!}
 * is {@code summer}), or once common letter substitutions are undone ({@code p@ssw0rd} is {@code
 * password}).
 */
public final class PasswordPolicy {
  private static final Set<String> COMMON = load("common-passwords.txt");

  /** Parts of the address shorter than this are too short to be worth looking for. */
  private static final int MIN_NAME_PART = 3;

  private static final String SERVICE_NAME = "periscope";

  private PasswordPolicy() {}

  /**
   * Every problem of {@code password} for an account with {@code email}, at the body field {@code
   * field}.
   */
  public static List<Issue> check(String password, String email, String field) {
    List<Issue> issues = new ArrayList<>();
    if (password == null
        || password.length() < Passwords.MIN_LENGTH
        || password.length() > Passwords.MAX_LENGTH) {
      issues.add(
          Issue.at(
              "must be " + Passwords.MIN_LENGTH + " to " + Passwords.MAX_LENGTH + " characters",
              field));
      return issues;
    }
    if (isCommon(password)) {
      issues.add(Issue.at("is a common password: choose a longer phrase of your own", field));
    } else if (tooCloseToEmail(password, email)) {
      issues.add(Issue.at("is too close to the e-mail address: add words of your own", field));
    }
    return issues;
  }

  static boolean isCommon(String password) {
    String lower = password.toLowerCase(Locale.ROOT);
    String core = core(lower);
    // decorations first, then substitutions (p4ssw0rd2024!), and the other way round (!password!)
    return Stream.of(
            lower,
            core,
            undoSubstitutions(lower),
            undoSubstitutions(core),
            core(undoSubstitutions(lower)))
        .anyMatch(COMMON::contains);
  }

  /** Whether the password is little more than the address's name parts (or this service's name). */
  static boolean tooCloseToEmail(String password, String email) {
    String rest = password.toLowerCase(Locale.ROOT);
    for (String part : nameParts(email)) rest = rest.replace(part, "");
    rest = rest.replace(SERVICE_NAME, "");
    return rest.length() < Passwords.MIN_LENGTH;
  }

  /**
   * The local part and the domain's labels but its top level, as far as they are long enough to
   * matter.
   */
  private static List<String> nameParts(String email) {
    List<String> parts = new ArrayList<>();
    if (email == null) return parts;
    String lower = email.trim().toLowerCase(Locale.ROOT);
    parts.add(lower);
    int at = lower.lastIndexOf('@');
    if (at < 0) return parts;
    parts.add(lower.substring(0, at));
    String[] labels = lower.substring(at + 1).split("\\.");
    for (int i = 0; i < labels.length - 1; i++) parts.add(labels[i]);
    parts.removeIf(p -> p.length() < MIN_NAME_PART);
    // longest first, so the whole address goes before its parts
    parts.sort((a, b) -> b.length() - a.length());
    return parts;
  }

  /** The password without leading and trailing characters that are not letters. */
  private static String core(String lower) {
    int start = 0;
    int end = lower.length();
    while (start < end && !Character.isLetter(lower.charAt(start))) start++;
    while (end > start && !Character.isLetter(lower.charAt(end - 1))) end--;
    return lower.substring(start, end);
  }

  private static String undoSubstitutions(String lower) {
    StringBuilder out = new StringBuilder(lower.length());
    for (char c : lower.toCharArray()) {
      out.append(
          switch (c) {
            case '0' -> 'o';
            case '1', '!' -> 'i';
            case '3' -> 'e';
            case '4', '@' -> 'a';
            case '5', '$' -> 's';
            case '7' -> 't';
            default -> c;
          });
    }
    return out.toString();
  }

  private static Set<String> load(String resource) {
    Set<String> words = new HashSet<>();
    InputStream in =
        Optional.ofNullable(PasswordPolicy.class.getResourceAsStream(resource))
            .orElseThrow(() -> new IllegalStateException(resource + " is missing from the jar"));
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      reader
          .lines()
          .map(String::trim)
          .filter(l -> !l.isEmpty() && !l.startsWith("#"))
          .forEach(words::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(words);
  }
}
