# Included by trian_races.pxi: race 1, KORRAX (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Slave-Minion, Hive Defender.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Living structures, Regeneration, Slave-Minion (additional).
#
# The race's actions are A_RACE + 1 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of trian_races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.
