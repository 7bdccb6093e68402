"""Combat arithmetic: which spaces an Attack Command reaches, damage from an attack,
shields, boosts, and defeat.

DMG = the Command's DMG + the attacker's boosts − what Instant Commands reduce −
the target's shields. Whenever DMG comes at an Elemental, all its shields go (even
when they stop all of it); boosts go from an attacker once it has attacked. An
Elemental whose damage reaches its HP is defeated.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from rules.command_of_nature.cards import CommandCard
from rules.command_of_nature.formation import Elemental, Pos, distance


@dataclass(frozen=True)
class Hit:
    """What a hit did: damage counters added, shields lost, whether it defeated."""

    dealt: int
    shields_lost: int
    defeated: bool


def incoming_attack_dmg(command_dmg: int, boosts: int, reduced: int) -> int:
    """The DMG an attack brings before the target's shields (never below 0)."""
    return max(0, command_dmg + boosts - reduced)


def take_hit(target: Elemental, hp: int, incoming: int) -> Hit:
    """Apply `incoming` DMG to `target` (in place): shields absorb one each and all go
    once any DMG arrives; damage counters are added; defeat at damage >= HP."""
    if incoming <= 0:
        return Hit(dealt=0, shields_lost=0, defeated=target.damage >= hp)
    lost = target.shields
    dealt = max(0, incoming - lost)
    target.shields = 0
    target.damage += dealt
    return Hit(dealt=dealt, shields_lost=lost, defeated=target.damage >= hp)


def spend_boosts(attacker: Elemental, *, keeps_boosts: bool = False) -> int:
    """An attacker's boosts are removed after it attacks (unless a card says they stay);
    returns how many it attacked with."""
    boosts = attacker.boosts
    if not keeps_boosts:
        attacker.boosts = 0
    return boosts


def attack_reaches(command: CommandCard, attacker: Pos, target: Pos) -> bool:
    """Whether an Attack Command lets an Elemental at `attacker` hit one at `target`:
    melee is Row I against Row I; ranged goes by distance or by the target's rows."""
    profile = command.attack
    assert profile is not None
    if attacker[0] + 1 not in profile.attacker_rows:
        return False
    if profile.range == "melee":
        return attacker[0] == 0 and target[0] == 0
    if profile.distance is not None:
        return distance(attacker, target) == profile.distance
    return not profile.target_rows or target[0] + 1 in profile.target_rows


def target_choices(command: CommandCard, attacker: Pos, enemy: list[Pos]) -> list[tuple[Pos, ...]]:
    """The ordered picks of 1..`targets` distinct enemy spaces in the Command's reach."""
    assert command.attack is not None
    reach = [t for t in enemy if attack_reaches(command, attacker, t)]
    return [
        picks
        for n in range(1, min(command.attack.targets, len(reach)) + 1)
        for picks in permutations(reach, n)
    ]
