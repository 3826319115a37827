"""Search bots any pack can use: they read a game only through the public
game API (``legal_actions``, ``apply``, ``determinized``, ``to_act``,
``is_over``, ``score``) and a pack's own playout policy and value."""
