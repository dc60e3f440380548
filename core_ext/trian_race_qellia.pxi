# Included by trian_races.pxi: race 3, QELLIA (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Crystalline particle transporter, Priceless technology.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Ice cell, Quantum harmonic oscillator, Holographic trick.
#
# The race's actions are A_RACE + 3 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of trian_races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.
