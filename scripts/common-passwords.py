#!/usr/bin/env python3
"""Writes src/main/resources/io/periscope/auth/common-passwords.txt, the list the password policy refuses.

Written for Periscope from general knowledge of what people choose (no list is copied from elsewhere): words,
names, teams and phrases that lead every published breach ranking, keyboard walks, digit runs and repeats, and
those words with the endings people add (digits, years, '!'). The policy also strips leading and trailing
digits and symbols and undoes common letter substitutions before it looks a password up, so 'P@ssw0rd2024!'
is found through 'password'.

Run it from the repository root after changing the words: python3 scripts/common-passwords.py
"""
import pathlib

WORDS = """
password passw0rd passwort motdepasse contrasena senha parola wachtwoord haslo salasana lozinka
letmein welcome welcome1 iloveyou loveyou iloveu lovely loveme lovers love123 mylove trustno1 whatever
secret secret1 private access admin administrator root toor master master1 superuser guest user
login logon default changeme change123 newpass newpassword temp temppass temporary test tester testing
test123 demo sample example nothing nopassword blank empty unknown qwerty qwertz azerty
dragon monkey shadow sunshine princess football baseball basketball soccer hockey tennis golf
starwars batman superman spiderman pokemon pikachu naruto minecraft fortnite roblox zelda mario
freedom liberty justice matrix mustang ferrari porsche corvette harley yamaha mercedes bmw
computer internet google facebook twitter instagram youtube linkedin microsoft windows apple iphone
android samsung nokia dell laptop desktop server network cisco oracle linux ubuntu debian
cheese chocolate cookie cookies banana orange apple123 cherry strawberry pepper ginger honey sugar
coffee pizza burger chicken turkey bacon pumpkin peanut butter butterfly flower flowers rose
summer winter spring autumn sunday monday friday january february march april june july august
september october november december holiday vacation christmas easter birthday happy happiness
tiger lion bear eagle falcon hawk wolf fox panther jaguar dolphin shark whale horse pony kitty
kitten puppy doggy doggie snoopy garfield scooby tigger pooh winnie bunny rabbit turtle
angel angels heaven jesus christ god blessed faith hope grace church prayer bible
killer hunter sniper soldier warrior ninja samurai viking knight wizard dragon1 phoenix
hello hello123 hi hey yes no ok okay goodbye thanks thankyou please sorry
money dollar dollars cash rich million billion success winner champion gold silver diamond
magic mystery secret123 hidden ghost zombie vampire devil demon hell heaven1 angel1
music guitar piano drums singer rock metal punk jazz blues rap hiphop dance party
family friend friends brother sister mother father mommy daddy baby babygirl babyboy
beautiful pretty sweet sweetie sweetheart honey1 darling sexy hottie cutie handsome
princess1 prince queen king kingdom empire royal lady lord boss chief captain
london paris berlin tokyo newyork chicago boston dallas texas california florida canada
america usa england france germany italy spain brazil mexico china india russia japan
arsenal chelsea liverpool everton united manutd barcelona realmadrid juventus milan
yankees redsox cowboys steelers packers lakers celtics bulls raiders eagles1 patriots
michael jennifer jessica ashley daniel david matthew andrew joshua christopher anthony
william thomas robert richard charles joseph james john george jordan taylor justin
michelle amanda melissa nicole stephanie elizabeth samantha sarah hannah emily emma
olivia sophia isabella madison abigail chloe natalie lauren rachel rebecca victoria
alexander alexandra benjamin nicholas jonathan tyler brandon kevin brian jason eric
steven ryan jacob ethan logan lucas mason noah liam aiden jack harry charlie oliver
maria anna julia laura sandra patricia linda barbara susan karen nancy lisa betty
helen donna carol ruth sharon diana monica veronica angela tiffany crystal amber
heather brittany courtney kimberly danielle vanessa jasmine destiny andrea alicia
ginger1 buster max maxwell rocky lucky charlie1 bailey buddy molly daisy maggie sadie
shadow1 smokey tucker bella lucy coco oscar toby teddy bandit rusty sammy duke
abc abcd abcde abcdef abcdefg abcdefgh abc123 abcd1234 abcabc aaa aaaa aaaaaa
asdf asdfgh asdfghjk asdfghjkl zxcv zxcvbn zxcvbnm qazwsx qweasd qweasdzxc 1qaz2wsx
1q2w3e 1q2w3e4r 1q2w3e4r5t zaq12wsx qwe123 qwerty123 asd123 zxc123 q1w2e3r4 a1b2c3
iloveyou1 iloveyou2 loveyou1 ihateyou fuckyou fuckoff shit bitch asshole
whatever1 forever forever1 always together soulmate destiny1 dream dreams dreamer
galaxy universe planet cosmos star stars sun moon sky rainbow thunder lightning storm
ocean beach island mountain river forest nature green blue red black white purple yellow
silver1 crystal1 diamond1 emerald ruby sapphire pearl jade onyx
internet1 password1 password12 password123 password1234 passw0rd1 p4ssword pa55word
letmein1 welcome123 admin123 admin1234 root123 master123 test1234 qwerty1 monkey1
hunter2 abc12345 iloveyou123 sunshine1 princess123 football1 baseball1 superman1
batman1 trustno11 starwars1 dragon123 shadow123 michael1 jordan23 ashley1 jessica1
whatever123 charlie123 freedom1 killer1 soccer1 hockey1 summer1 winter1 spring1
zaq1zaq1 1q2w3e4r5t6y qwertyuiop qwertyui asdfqwer zxcvasdf mnbvcxz poiuytrewq lkjhgfdsa
passpass pass1234 password! iloveyou! letmein! changeme1 welcome! secret!
periscope watcher watchdog monitor alerts alert
"""

KEYBOARD = ["qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890", "0987654321", "qazwsxedc", "wsxedcrfv",
            "!@#$%^&*", "!qaz@wsx", "1qazxsw2", "zaq1xsw2", "qwertzuiop", "azertyuiop", "ytrewq", "poiuyt"]


def digit_runs():
    runs = set()
    for length in range(4, 13):
        runs.add("".join(str((i + 1) % 10) for i in range(length)))  # 1234…
        runs.add("".join(str((9 - i) % 10) for i in range(length)))  # 9876…
        runs.add("".join(str(i % 10) for i in range(length)))  # 0123…
        for d in "0123456789":
            runs.add(d * length)
    for pair in ["12", "21", "69", "01", "10", "123", "321", "007", "666", "777", "1234"]:
        runs.add(pair * (12 // len(pair)))
        runs.add(pair * (8 // len(pair)))
    for year in range(1950, 2031):
        runs.add(str(year) * 2)
    return runs


def repeats():
    out = set()
    for c in "abcdefghijklmnopqrstuvwxyz":
        for length in (4, 6, 8, 10, 12):
            out.add(c * length)
    for chunk in ["ab", "abc", "xyz", "qwe", "asd", "zxc", "lol", "haha", "hehe", "xo"]:
        out.add(chunk * (12 // len(chunk)))
        out.add(chunk * (8 // len(chunk)))
    return out


ENDINGS = ["1", "12", "123", "1234", "12345", "!", "1!", "123!", "01", "69", "007", "2000", "2020", "2021", "2022",
           "2023", "2024", "2025", "2026"]


def main():
    words = [w for w in WORDS.split() if w]
    entries = set(w.lower() for w in words)
    entries.update(k.lower() for k in KEYBOARD)
    entries.update(digit_runs())
    entries.update(repeats())
    # The words people most often decorate, spelled out with their endings: a plain lookup finds them even
    # before the policy strips endings.
    for w in words[:250]:
        if w.isalpha():
            for e in ENDINGS:
                entries.add((w + e).lower())
    target = pathlib.Path("src/main/resources/io/periscope/auth/common-passwords.txt")
    target.parent.mkdir(parents=True, exist_ok=True)
    header = ["# Common passwords the password policy refuses; one a line, lower case.",
              "# Generated by scripts/common-passwords.py (Periscope's own word list): edit that, not this."]
    target.write_text("\n".join(header + sorted(entries)) + "\n", encoding="utf-8")
    print(f"{len(entries)} entries -> {target}")


if __name__ == "__main__":
    main()
