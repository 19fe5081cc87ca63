package io.periscope.notify;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.regex.Pattern;

/**
 * What counts as an e-mail address, wherever one comes in (sign-in, registration, recovery,
 * identity providers, {@code email:} channels): at most 254 characters, a host-name domain with a
 * dot (an internationalized one in Unicode too, never an address literal), and one bare address as
 * Jakarta Mail reads RFC 822 (no control characters, display name, group or second address), so it
 * is written into a mail exactly as given.
 */
public final class EmailAddresses {
  private static final Pattern SHAPE =
      Pattern.compile("[^@\\s]{1,64}@[\\p{L}\\p{N}-]{1,63}(\\.[\\p{L}\\p{N}-]{1,63})+");

  private EmailAddresses() {}

  public static boolean valid(String address) {
    if (address == null || address.length() > 254 || !SHAPE.matcher(address).matches())
      return false;
    try {
      InternetAddress parsed = new InternetAddress(address, true);
      parsed.validate();
      return parsed.getAddress().equals(address) && parsed.getPersonal() == null;
    } catch (AddressException e) {
      return false;
    }
  }
}
