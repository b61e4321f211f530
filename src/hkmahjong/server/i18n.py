"""介面文字 the web parlor's words in 繁體, 简体 and English, and the choice of language.

Every string a page shows comes from :data:`WORDS` (or from the library's own names: fan names,
tile names), so ``tests/server/test_i18n.py`` can check that each page in each language holds no
string of another script. Plain Python: no web framework import.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "COOKIE",
    "DEFAULT_LANG",
    "LANGS",
    "SWITCH_DOCS",
    "WORDS",
    "catalogue",
    "negotiate",
    "reason",
    "switch_doc",
    "tr",
]

LANGS: tuple[str, ...] = ("zh-Hant", "zh-Hans", "en")
"""The page languages, as BCP 47 tags (also the ``lang`` attribute of every page)."""
DEFAULT_LANG = "zh-Hant"
COOKIE = "hkmj_lang"
LANG_NAMES = {"zh-Hant": "繁體", "zh-Hans": "简体", "en": "English"}

WORDS: dict[str, tuple[str, str, str]] = {
    # key: (zh-Hant, zh-Hans, en)
    # -- layout
    "brand": ("香港麻雀館", "香港麻雀馆", "HK Mahjong Parlor"),
    "nav_home": ("大堂", "大堂", "Lobby"),
    "nav_practice": ("練習", "练习", "Practice"),
    "nav_rules": ("規則", "规则", "Rules"),
    "nav_tutorial": ("計番教學", "计番教学", "Scoring guide"),
    "nav_calculator": ("計番器", "计番器", "Calculator"),
    "nav_login": ("登入", "登录", "Log in"),
    "nav_register": ("註冊", "注册", "Register"),
    "nav_logout": ("登出", "登出", "Log out"),
    "language": ("語言", "语言", "Language"),
    "guest": ("訪客", "访客", "Guest"),
    "jade": ("玉", "玉", "jade"),
    "jade_n": ("{n} 玉", "{n} 玉", "{n} jade"),
    "footer": (
        "玉只作計分之用，沒有任何金錢價值。",
        "玉只作计分之用，没有任何金钱价值。",
        "Jade only keeps score; it has no money value.",
    ),
    "stop": ("。", "。", ". "),
    "semi": ("；", "；", "; "),
    "colon": ("：", "：", ": "),
    "comma": ("，", "，", ", "),
    "pay_self_each": (
        "自摸：三家各付 {n} 玉",
        "自摸：三家各付 {n} 玉",
        "self-draw: each of the three pays {n} jade",
    ),
    "pay_full_gun": (
        "食出銃（全銃）：出銃者付 {n} 玉",
        "胡出铳（全铳）：出铳者付 {n} 玉",
        "on a discard (full gun): the discarder pays {n} jade",
    ),
    "pay_half_gun": (
        "食出銃（半銃）：出銃者付 {a} 玉，其餘兩家各付 {b} 玉",
        "胡出铳（半铳）：出铳者付 {a} 玉，其余两家各付 {b} 玉",
        "on a discard (half gun): the discarder pays {a} jade, the other two {b} each",
    ),
    "pay_rob_full_gun": (
        "搶槓（全銃）：加槓者當出銃，付 {n} 玉",
        "抢杠（全铳）：加杠者当出铳，付 {n} 玉",
        "robbed kong (full gun): the kong's declarer pays as the discarder, {n} jade",
    ),
    "pay_rob_half_gun": (
        "搶槓（半銃）：加槓者當出銃，付 {a} 玉，其餘兩家各付 {b} 玉",
        "抢杠（半铳）：加杠者当出铳，付 {a} 玉，其余两家各付 {b} 玉",
        "robbed kong (half gun): the kong's declarer pays {a} jade as the discarder, the other two {b} each",
    ),
    "pay_seat": ("{w}位付 {n} 玉", "{w}位付 {n} 玉", "{w} pays {n} jade"),
    "skip": ("跳到內容", "跳到内容", "Skip to content"),
    # -- home / lobby
    "home_title": ("大堂", "大堂", "Lobby"),
    "home_intro": (
        "同三個電腦對手練習，或者同其他玩家開檯打四局。",
        "同三个电脑对手练习，或者同其他玩家开台打四局。",
        "Practise against three bots, or sit down with other players for four hands.",
    ),
    "play_guest": ("以訪客身分練習", "以访客身份练习", "Practise as a guest"),
    "practice_new": ("開始練習", "开始练习", "Start practice"),
    "quick_match": ("快速配對", "快速配对", "Quick match"),
    "create_table": ("開新檯", "开新台", "New table"),
    "open_tables": ("等緊開檯", "等待开台", "Open tables"),
    "rp_nothing_yet": (
        "呢局啱啱開始，未有嘢睇住。第一隻牌打出之後再嚟。",
        "这局刚刚开始，还没有可看的。第一张牌打出后再来。",
        "This hand has only just begun: nothing to show until its first discard.",
    ),
    "open_table": ("開檯", "开台", "Open a table"),
    "create_title": ("開一張檯", "开一张台", "Open a table"),
    "create_intro": (
        "揀台例、長度同注碼；可以開私人檯，將邀請連結俾朋友，空位由電腦補上。",
        "选台例、长度和注码；可以开私人台，把邀请链接发给朋友，空位由电脑补上。",
        "Choose the rules, the length and the stake; a private table has an invite link to send to friends, and bots can fill the empty seats.",
    ),
    "create_login": (
        "登入之後先可以開檯同其他人玩。",
        "登录之后才可以开台和其他人玩。",
        "Log in to open a table and play other people.",
    ),
    "house_switches": ("改台例（家規）", "改台例（家规）", "Change house rules"),
    "stake_level": ("注碼", "注码", "Stake"),
    "level_free": ("免費（唔計玉）", "免费（不计玉）", "Free (no jade)"),
    "level_stake": (
        "{n} 倍：每人 {stake} 玉",
        "{n} 倍：每人 {stake} 玉",
        "×{n}: {stake} jade each",
    ),
    "stake_note": (
        "牌檯價值 {v} 玉（出銃最高番所付）。注碼 = 牌檯價值 × 倍數；開局時先扣入託管。",
        "牌桌价值 {v} 玉（出铳最高番所付）。注码 = 牌桌价值 × 倍数；开局时先扣入托管。",
        "Table value {v} jade (what a discard at the top fan pays). Stake = table value × level; it goes into escrow when the match starts.",
    ),
    "stake_chosen": ("每人注碼：{n} 玉", "每人注码：{n} 玉", "Each player stakes {n} jade"),
    "private_table": (
        "私人檯（憑邀請連結入座）",
        "私人台（凭邀请链接入座）",
        "Private (seats by invite link only)",
    ),
    "bot_seats": ("電腦補位", "电脑补位", "Bots in the empty seats"),
    "bots_n": ("{n} 個電腦", "{n} 个电脑", "{n} bots"),
    "bots_none": ("唔要電腦", "不要电脑", "No bots"),
    "create_go": ("開檯", "开台", "Open the table"),
    "invite_link": ("邀請連結", "邀请链接", "Invite link"),
    "invite_hint": (
        "將呢條連結俾朋友，佢哋撳入嚟就可以入座。",
        "把这条链接发给朋友，他们点进来就可以入座。",
        "Send this link to friends: opening it lets them sit down.",
    ),
    "fill_bots_now": ("用電腦補空位", "用电脑补空位", "Fill empty seats with bots"),
    "join_here": ("入座", "入座", "Sit down"),
    "login_to_join": ("登入後入座", "登录后入座", "Log in to sit down"),
    "table_not_found": ("搵唔到呢張檯。", "找不到这张台。", "There is no such table."),
    "werr_full": ("張檯已經坐滿", "牌桌已经坐满", "the table is full"),
    "werr_started": ("牌局已經開始", "牌局已经开始", "the match has already started"),
    "werr_balance": (
        "你嘅玉唔夠付注碼",
        "你的玉不够付注码",
        "you do not have enough jade for the stake",
    ),
    "werr_invite": ("邀請連結唔啱", "邀请链接不对", "the invite link is not right"),
    "werr_forbidden": ("你唔可以咁做", "你不能这样做", "you may not do that"),
    "werr_guest": (
        "訪客只可以練習；請先註冊",
        "访客只能练习；请先注册",
        "guests play practice tables; register to play online",
    ),
    "werr_too_many_tables": ("你開咗太多張檯", "你开了太多牌桌", "you have too many tables open"),
    "werr_bad_config": ("設定唔啱", "设定不对", "a setting is not right"),
    "werr_not_found": ("搵唔到呢張檯", "找不到这张台", "there is no such table"),
    "emote_hello": ("你好", "你好", "Hello"),
    "emote_nice": ("好牌！", "好牌！", "Nice hand!"),
    "emote_thanks": ("多謝", "谢谢", "Thanks"),
    "emote_sorry": ("唔好意思", "不好意思", "Sorry"),
    "emote_gg": ("打得好", "打得好", "Good game"),
    "emote_hurry": ("快啲啦", "快点吧", "Hurry up"),
    "emotes": ("表情", "表情", "Emotes"),
    "settings": ("設定", "设定", "Settings"),
    "set_auto_win": ("可以食糊就自動食", "能胡就自动胡", "Win automatically when I can"),
    "set_auto_pass": ("自動「過」", "自动“过”", "Pass automatically"),
    "set_pass_none": ("唔好", "不要", "never"),
    "set_pass_no_chow": ("只得上嘅時候", "只能吃的时候", "when only a chow is possible"),
    "set_pass_all": ("冇得食糊就過", "不能胡就过", "whenever I cannot win"),
    "set_large_tiles": ("大隻牌", "大号牌", "Large tiles"),
    "set_sound": ("聲效", "声效", "Sound"),
    "set_animations": ("動畫", "动画", "Animations"),
    "set_saved": ("已儲存", "已保存", "Saved"),
    "set_sort": ("排牌", "理牌", "Sort my hand"),
    "set_sort_suit": ("按花色", "按花色", "by suit"),
    "set_sort_drawn_last": ("按摸牌次序", "按摸牌顺序", "as drawn"),
    "set_colour_blind": (
        "色弱友善（每門牌底有記號）",
        "色弱友好（每门牌底有标记）",
        "Colour-blind-safe suits (a mark under each suit)",
    ),
    "my_games": ("我的牌局", "我的牌局", "My games"),
    "go_table": ("去張檯", "去牌桌", "Go to the table"),
    "tst_waiting": ("等緊人", "等人中", "waiting for players"),
    "tst_playing": ("進行中", "进行中", "playing"),
    "tst_paused": ("已暫停", "已暂停", "paused"),
    "hand_of": ("第 {n} 局", "第 {n} 局", "hand {n}"),
    "house_rules": ("自訂台例", "自订台例", "house rules"),
    "vs_bots": ("對 {who}", "对 {who}", "vs {who}"),
    "no_tables": ("暫時冇人開檯。", "暂时没有人开台。", "No open tables right now."),
    "login_for_online": (
        "登入後可以同其他玩家對局。",
        "登录后可以同其他玩家对局。",
        "Log in to play other people.",
    ),
    "col_table": ("檯", "台", "Table"),
    "col_host": ("檯主", "台主", "Host"),
    "col_rules": ("台例", "台例", "Rules"),
    "col_stake": ("注碼（手續費）", "注码（手续费）", "Stake (fee)"),
    "stake_fee": (
        "{stake}＋手續費 {fee} 玉",
        "{stake}＋手续费 {fee} 玉",
        "{stake} + fee {fee} jade",
    ),
    "col_length": ("長度", "长度", "Length"),
    "col_seats": ("座位", "座位", "Seats"),
    "join": ("入座", "入座", "Sit down"),
    "watch": ("旁觀", "旁观", "Watch"),
    "your_tables": ("你的牌檯", "你的牌台", "Your tables"),
    "resume": ("繼續", "继续", "Resume"),
    "lobby_error": ("載入大堂失敗。", "载入大堂失败。", "Could not load the lobby."),
    # -- login / register
    "login_title": ("登入", "登录", "Log in"),
    "register_title": ("註冊", "注册", "Register"),
    "username": ("名稱", "名称", "Name"),
    "password": ("密碼", "密码", "Password"),
    "password_again": ("再輸入密碼", "再输入密码", "Password again"),
    "submit_login": ("登入", "登录", "Log in"),
    "submit_register": ("建立帳戶", "建立账户", "Create account"),
    "no_account": ("未有帳戶？", "还没有账户？", "No account yet?"),
    "have_account": ("已有帳戶？", "已有账户？", "Already have an account?"),
    "register_note": (
        "新帳戶會收到起始的玉。名稱 1–24 個字（字母、數字、空格、_ . -），密碼最少 8 個字。",
        "新账户会收到起始的玉。名称 1–24 个字（字母、数字、空格、_ . -），密码最少 8 个字。",
        "New accounts receive starting jade. Names have 1–24 letters, digits, spaces, _ . or -; passwords at least 8 characters.",
    ),
    "err_bad_login": ("名稱或密碼錯誤。", "名称或密码错误。", "Wrong name or password."),
    "err_rate_limited": (
        "嘗試太多次，請稍後再試。",
        "尝试太多次，请稍后再试。",
        "Too many attempts; try again later.",
    ),
    "err_name_taken": ("呢個名稱已經有人用。", "这个名称已经有人用。", "That name is taken."),
    "err_bad_name": (
        "名稱要 1 至 24 個字：文字、數字、空格或 _ . -，頭尾要係文字或數字。",
        "名称要 1 至 24 个字：文字、数字、空格或 _ . -，首尾要是文字或数字。",
        "A name has 1–24 letters, digits, spaces or _ . -, and starts and ends with a letter or digit.",
    ),
    "err_bad_password": ("密碼太短。", "密码太短。", "The password is too short."),
    "err_mismatch": ("兩次密碼唔同。", "两次密码不同。", "The passwords differ."),
    "err_csrf": ("表格已過期，請再試。", "表格已过期，请再试。", "The form expired; try again."),
    "err_unknown": ("出錯，請再試。", "出错，请再试。", "Something went wrong; try again."),
    "err_name_reserved": (
        "以 guest 開頭嘅名稱留咗俾訪客用。",
        "以 guest 开头的名称留给访客使用。",
        "Names starting with “guest” are kept for guests.",
    ),
    "err_name_mixed": (
        "名稱唔可以夾雜唔同文字（例如拉丁同西里爾字母）、隱形字元或者唔同寫法嘅數字。",
        "名称不能混用不同文字（例如拉丁和西里尔字母）、隐形字符或不同写法的数字。",
        "A name cannot mix scripts (such as Latin and Cyrillic letters), invisible characters or different kinds of digits.",
    ),
    "err_name_confusable": (
        "呢個名稱同一個已經有人用嘅名稱睇落太似。",
        "这个名称和一个已经有人用的名称看起来太像。",
        "That name looks too much like a name someone already has.",
    ),
    # -- ui-pages (issue 30): why a name is refused, jargon explained, the source legend
    "err_name_too_long": (
        "名稱太長：{n} 個字，最多 {max} 個。",
        "名称太长：{n} 个字，最多 {max} 个。",
        "That name is too long: {n} characters, at most {max}.",
    ),
    "err_name_chars": (
        "名稱唔可以有{chars}：只可以用文字、數字、空格或 _ . -。",
        "名称不能有{chars}：只能用文字、数字、空格或 _ . -。",
        "A name cannot contain {chars}: only letters, digits, spaces, _ . or -.",
    ),
    "err_name_ends": (
        "名稱嘅頭尾要係文字或數字。",
        "名称的首尾要是文字或数字。",
        "A name must start and end with a letter or digit.",
    ),
    "term_help": ("{term}係咩？", "{term}是什么？", "What is the {term}?"),
    "term_name_digest": ("台例摘要", "台例摘要", "ruleset digest"),
    "term_name_seed": ("種子", "种子", "seed"),
    "term_name_wallcheck": ("驗牌牆", "验牌墙", "wall check"),
    "term_name_shanten": ("向聽", "向听", "shanten"),
    "term_digest": (
        "台例摘要：由全部台例設定計出嚟嘅 SHA-256 指紋（呢度顯示頭 12 個字）。兩張檯嘅摘要一樣，"
        "規則就完全一樣；牌譜入面都有，任何人都可以核對。",
        "台例摘要：由全部台例设定算出的 SHA-256 指纹（这里显示前 12 个字符）。两张台的摘要一样，"
        "规则就完全一样；牌谱里也有，任何人都可以核对。",
        "The ruleset digest: a SHA-256 fingerprint of every house-rule setting (its first 12 "
        "characters shown here). Two tables with the same digest play exactly the same rules; the "
        "game record carries it, so anyone can check.",
    ),
    "term_seed": (
        "種子：64 個十六進位字（一個 256 位元嘅隨機數），決定呢局點洗牌、擲骰同砌牌。開局前只公開"
        "佢嘅 SHA-256（承諾），局後先公開種子，所以任何人都可以驗證牌牆冇被郁過。",
        "种子：64 个十六进制字符（一个 256 位的随机数），决定这局怎样洗牌、掷骰和砌牌。开局前只公开"
        "它的 SHA-256（承诺），局后才公开种子，所以任何人都可以验证牌墙没有被动过。",
        "The seed: 64 hexadecimal characters (a 256-bit random number) that decide how the hand's "
        "tiles were shuffled, the dice and the wall. Only its SHA-256 (the commitment) is shown "
        "before the hand and the seed after it, so anyone can check that the wall was not touched.",
    ),
    "term_wallcheck": (
        "驗牌牆：你嘅瀏覽器用局後公開嘅種子自己重新洗牌砌牆，再同開局前嘅承諾同呢局發出嘅每隻牌"
        "對一次，證明伺服器冇偷換過牌。",
        "验牌墙：你的浏览器用局后公开的种子自己重新洗牌砌墙，再和开局前的承诺及这局发出的每张牌"
        "对一次，证明服务器没有偷换过牌。",
        "The wall check: your browser rebuilds the wall itself from the seed revealed after the "
        "hand and compares it with the commitment made before the hand and with every tile dealt, "
        "proving the server did not swap any tile.",
    ),
    "term_shanten": (
        "向聽：仲差幾多隻有用嘅牌先至聽牌（只差一隻就食糊）。0 向聽即係已經聽緊；1 向聽即係再入"
        "一隻啱嘅牌就聽。",
        "向听：还差多少张有用的牌才听牌（只差一张就胡牌）。0 向听即已经听牌；1 向听即再进一张对的"
        "牌就听牌。",
        "Shanten: how many useful tiles a hand still needs to be ready (one tile from a win). 0 "
        "means ready; 1 means one more right tile makes it ready.",
    ),
    # -- practice setup
    "practice_title": ("練習", "练习", "Practice"),
    "practice_intro": (
        "你同三個電腦對手，唔使玉。可以隨時暫停，之後再繼續。",
        "你同三个电脑对手，不用玉。可以随时暂停，之后再继续。",
        "You and three bots, no jade at stake. Pause any time and resume later.",
    ),
    "bot_level": ("對手程度", "对手程度", "Bot level"),
    "level_easy": ("初學", "初学", "Easy"),
    "level_normal": ("普通", "普通", "Normal"),
    "level_strong": ("高手", "高手", "Strong"),
    "level_expert": ("專家", "专家", "Expert"),
    "level_hard": ("高手", "高手", "Hard"),
    "level_master": ("大師", "大师", "Master"),
    "match_length": ("牌局長度", "牌局长度", "Match length"),
    "len_one_hand": ("一局", "一局", "One hand"),
    "len_quarter": ("一圈", "一圈", "One round"),
    "len_four_rounds": ("四圈", "四圈", "Four rounds"),
    "len_8": ("八局", "八局", "8 hands"),
    "len_16": ("十六局", "十六局", "16 hands"),
    "len_bankrupt": ("打至有人破產", "打至有人破产", "Until someone is bankrupt"),
    "len_4": ("四局", "四局", "4 hands"),
    "ruleset": ("台例", "台例", "House rules"),
    "hints_on": ("提供提示", "提供提示", "Offer hints"),
    "start": ("開始", "开始", "Start"),
    "create_error": ("開檯失敗：{why}", "开台失败：{why}", "Could not create the table: {why}"),
    # -- rules
    "rules_title": ("規則", "规则", "Rules"),
    "preset": ("台例", "台例", "Rule set"),
    "show": ("顯示", "显示", "Show"),
    "digest": ("台例編號", "台例编号", "Ruleset digest"),
    "switches": ("台例開關", "台例开关", "House-rule switches"),
    "switch_on": ("開", "开", "on"),
    "switch_off": ("關", "关", "off"),
    "min_fan_is": ("起糊：{n} 番", "起胡：{n} 番", "Minimum to win: {n} fan"),
    "limit_is": ("爆棚：{n} 番", "爆棚：{n} 番", "Limit: {n} fan"),
    "no_limit": ("冇上限", "没有上限", "No limit"),
    "gun_full": (
        "全銃：出銃者一個人付三份",
        "全铳：出铳者一个人付三份",
        "Full gun: the discarder alone pays three shares",
    ),
    "gun_half": (
        "半銃：出銃者付兩份，其餘兩家各付一份",
        "半铳：出铳者付两份，其余两家各付一份",
        "Half gun: the discarder pays two shares, the other two one each",
    ),
    # -- tutorial
    "tutorial_title": ("計番教學", "计番教学", "Scoring guide"),
    "tutorial_intro": (
        "下面每個數字都係由計番器即場計出嚟。分數以「玉」計。",
        "下面每个数字都是由计番器即场计出来的。分数以“玉”计。",
        "Every number below is computed by the calculator when the page is built. Points are in jade.",
    ),
    "score_table": ("分數表", "分数表", "Score table"),
    "col_fan": ("番", "番", "Fan"),
    "col_share": ("一份", "一份", "One share"),
    "col_self_draw": ("自摸（每家付）", "自摸（每家付）", "Self-draw (each pays)"),
    "col_full_gun": ("全銃（出銃者付）", "全铳（出铳者付）", "Full gun (discarder pays)"),
    "col_half_gun": (
        "半銃（出銃者 / 其餘每家）",
        "半铳（出铳者 / 其余每家）",
        "Half gun (discarder / each other)",
    ),
    "col_limit": ("爆棚", "爆棚", "Limit"),
    "examples": ("番種例子", "番种例子", "Patterns with examples"),
    "example_context": ("情況", "情况", "Situation"),
    "example_total": ("合共 {n} 番", "合共 {n} 番", "Total {n} fan"),
    "example_limit": ("爆棚（{n} 番）", "爆棚（{n} 番）", "Limit ({n} fan)"),
    "example_below": ("未夠番（{n} 番）", "未够番（{n} 番）", "Below the minimum ({n} fan)"),
    "example_pays": ("找數", "找数", "Payment"),
    "source": ("出處", "出处", "Source"),
    "not_played": ("（此台例不計）", "（此台例不计）", "(not played under these rules)"),
    "ctx_self": ("自摸", "自摸", "self-drawn"),
    "ctx_discard": ("食出銃", "食出铳", "on a discard"),
    "ctx_discard_from": ("食{w}位出銃", "胡{w}位出铳", "on {w}'s discard"),
    "ctx_robbed_from": ("搶{w}位嘅槓", "抢{w}位的杠", "robbing {w}'s kong"),
    "ctx_seat": ("{w}位", "{w}位", "{w} seat"),
    "ctx_round": ("{w}圈", "{w}圈", "{w} round"),
    "ctx_bonus": ("花", "花", "bonus tiles"),
    "fan_n": ("{n} 番", "{n} 番", "{n} fan"),
    "limit_hand": ("例牌", "例牌", "limit hand"),
    "per_tile": ("每隻", "每只", "per tile"),
    "per_set": ("每台", "每台", "per set"),
    "melds": ("副露", "副露", "Declared sets"),
    "concealed_kong": ("暗槓", "暗杠", "concealed kong"),
    # -- calculator
    "calc_title": ("計番器", "计番器", "Scoring calculator"),
    "calc_intro": (
        "撳牌加入手牌（包括食糊嗰隻），再揀情況，然後計番。",
        "点牌加入手牌（包括胡牌那只），再选情况，然后计番。",
        "Click tiles to build the hand (winning tile included), set the situation, then score it.",
    ),
    "calc_hand": ("手牌", "手牌", "Hand"),
    "calc_add_to": ("加入", "加入", "Add to"),
    "calc_concealed": ("暗牌", "暗牌", "Concealed"),
    "calc_chow": ("上（明）", "吃（明）", "Chow (exposed)"),
    "calc_pung": ("碰（明）", "碰（明）", "Pung (exposed)"),
    "calc_kong": ("明槓", "明杠", "Kong (exposed)"),
    "calc_ckong": ("暗槓", "暗杠", "Concealed kong"),
    "calc_bonus": ("花", "花", "Bonus tiles"),
    "calc_clear": ("清除", "清除", "Clear"),
    "calc_undo": ("退一隻", "退一只", "Undo"),
    "calc_winning": ("食糊嗰隻", "胡牌那只", "Winning tile"),
    "calc_winning_auto": ("自動揀最好", "自动选最好", "Best possible"),
    "calc_self_drawn": ("自摸", "自摸", "Self-drawn"),
    "calc_seat": ("門風", "门风", "Seat wind"),
    "calc_round": ("圈風", "圈风", "Prevailing wind"),
    "calc_special": ("特別情況", "特别情况", "Special moments"),
    "calc_score": ("計番", "计番", "Score"),
    "calc_result": ("結果", "结果", "Result"),
    "calc_total": ("合共", "合共", "Total"),
    "calc_not_win": ("唔係食糊：{why}", "不是胡牌：{why}", "Not a win: {why}"),
    "calc_error": ("計唔到：{why}", "计不到：{why}", "Cannot score: {why}"),
    "calc_arrangement": ("拆法", "拆法", "Arrangement"),
    "calc_payment": ("找數", "找数", "Payment"),
    "reason_not_complete": ("未成糊", "未成胡", "the hand is not complete"),
    "reason_below_minimum_fan": ("唔夠番", "不够番", "below the minimum fan"),
    "reason_invalid_tile_count": ("牌數唔啱（相公）", "牌数不对（相公）", "wrong number of tiles"),
    "reason_invalid_context": ("情況唔合", "情况不合", "the situation contradicts the hand"),
    "reason_bad_notation": ("手牌寫法錯誤", "手牌写法错误", "the hand cannot be read"),
    "wind_E": ("東", "东", "East"),
    "wind_S": ("南", "南", "South"),
    "wind_W": ("西", "西", "West"),
    "wind_N": ("北", "北", "North"),
    "sp_last_tile": ("海底", "海底", "Last tile"),
    "sp_kong_replacement": ("槓上開花", "杠上开花", "Win on a kong replacement"),
    "sp_double_kong_replacement": ("槓上槓", "杠上杠", "Double kong replacement"),
    "sp_bonus_replacement": ("花上自摸", "花上自摸", "Win on a bonus replacement"),
    "sp_robbing_kong": ("搶槓", "抢杠", "Robbing a kong"),
    "sp_heavenly": ("天糊", "天胡", "Heavenly hand"),
    "sp_earthly": ("地糊", "地胡", "Earthly hand"),
    "sp_first_go_around": ("人糊", "人胡", "Human hand"),
    "sp_seven_bonus": ("花糊", "花胡", "Seven bonus tiles"),
    "sp_eight_bonus": ("八仙過海", "八仙过海", "All eight bonus tiles"),
    "sp_early_ready": (
        "冚手糊（開局叫糊）",
        "冚手胡（开局听牌）",
        "Ready from the deal (declared)",
    ),
    "sp_declined_bonus_win": ("之前放棄花糊", "之前放弃花胡", "Declined a bonus win earlier"),
    "sp_concealed_kong_before": (
        "之前開過暗槓",
        "之前开过暗杠",
        "A concealed kong was declared first",
    ),
    # -- rules page prose (seed 003, with the ruleset's values filled in)
    "r_seats_h": ("座位同次序", "座位和次序", "Seats and turn order"),
    "r_seats": (
        "四個人坐東、南、西、北，逆時針出牌：東 → 南 → 西 → 北。東位係莊家。莊家食糊或者流局就連莊；閒家食糊就由下一位做莊。莊家輪過四位，圈風就轉：東圈、南圈、西圈、北圈。",
        "四个人坐东、南、西、北，逆时针出牌：东 → 南 → 西 → 北。东位是庄家。庄家胡牌或者流局就连庄；闲家胡牌就由下一位做庄。庄家轮过四位，圈风就转：东圈、南圈、西圈、北圈。",
        "Four players sit East, South, West and North and play anticlockwise: East → South → West → North. East is the dealer. When the dealer wins or the hand is drawn, the dealer stays; when another player wins, the deal passes on. After four dealers the prevailing wind moves on: East, South, West, North rounds.",
    ),
    "r_deal_h": ("開牌", "开牌", "The deal"),
    "r_deal": (
        "144 隻牌砌成牌牆。莊家 14 隻，其他人 13 隻。莊家先打第一隻牌。平時由牌頭摸牌；補花同補槓由牌尾摸。",
        "144 只牌砌成牌墙。庄家 14 只，其他人 13 只。庄家先打第一只牌。平时由牌头摸牌；补花和补杠由牌尾摸。",
        "The 144 tiles form the wall. The dealer gets 14 tiles, the others 13, and the dealer discards first. Normal draws come from the head of the wall; bonus and kong replacements from its tail.",
    ),
    "r_dead_wall_none": (
        "唔留牌尾：所有牌都可以摸。",
        "不留牌尾：所有牌都可以摸。",
        "No tiles are kept back: every tile can be drawn.",
    ),
    "r_dead_wall": (
        "留最後 {n} 隻唔摸；剩返咁多就流局。",
        "留最后 {n} 只不摸；剩下这么多就流局。",
        "The last {n} tiles are kept back; the hand is drawn when only they remain.",
    ),
    "r_bonus_h": ("花牌", "花牌", "Bonus tiles"),
    "r_bonus": (
        "八隻花季牌（梅蘭菊竹、春夏秋冬）唔入手牌：一拿到就翻開，再由牌尾補一隻。食糊時：",
        "八只花季牌（梅兰菊竹、春夏秋冬）不进手牌：一拿到就翻开，再由牌尾补一只。胡牌时：",
        "The eight bonus tiles (plum, orchid, chrysanthemum, bamboo; spring, summer, autumn, winter) never stay in the hand: show each at once and draw a replacement from the tail. When you win:",
    ),
    "r_no_bonus_tiles": (
        "呢個台例唔用花牌。",
        "这个台例不用花牌。",
        "These rules play without bonus tiles.",
    ),
    "r_turn_h": ("輪到你", "轮到你", "Your turn"),
    "r_turn": (
        "先摸一隻牌（啱啱碰或者上咗就唔使摸）。手上 14 隻時可以暗槓、加槓，或者夠番就自摸；最後一定要打出一隻。",
        "先摸一只牌（刚碰或者吃了就不用摸）。手上 14 只时可以暗杠、加杠，或者够番就自摸；最后一定要打出一只。",
        "Draw a tile (not after a pung or chow). With 14 tiles you may declare a concealed kong, add to a pung, or win by self-draw if you have enough fan; then you must discard one tile.",
    ),
    "r_claims_h": ("食、碰、槓、上", "胡、碰、杠、上", "Claims"),
    "r_claims": (
        "每隻打出嚟嘅牌，其他三家都可以要：食糊先過碰或槓，碰或槓先過上；只有下家可以上。",
        "每只打出来的牌，其他三家都可以要：胡牌优先于碰或杠，碰或杠优先于上；只有下家可以上。",
        "Every discard may be claimed: a win beats a pung or kong, which beats a chow; only the next player may chow.",
    ),
    "r_head_bump": (
        "兩家或以上同時食糊，由出牌者之後最先輪到嗰家食（截糊）。",
        "两家或以上同时胡牌，由出牌者之后最先轮到的一家胡（截胡）。",
        "When several players can win on one discard, the first in turn after the discarder wins (head bump).",
    ),
    "r_multi_win": (
        "兩家或以上同時食糊，各自都食（一炮多響）。",
        "两家或以上同时胡牌，各自都胡（一炮多响）。",
        "When several players can win on one discard, they all win (multiple winners).",
    ),
    "r_kong_h": ("槓同搶槓", "杠和抢杠", "Kongs and robbing"),
    "r_kong": (
        "每次開槓都由牌尾補一隻；用補返嚟嗰隻食糊係槓上開花。有人加槓時，可以用嗰隻牌食糊嘅人可以搶槓，加槓者當出銃。暗槓唔可以搶，除非係等十三么。",
        "每次开杠都由牌尾补一只；用补回来那只胡牌是杠上开花。有人加杠时，可以用那只牌胡牌的人可以抢杠，加杠者当出铳。暗杠不可以抢，除非是等十三么。",
        "Every kong draws a replacement from the tail; winning on it is a win on a kong replacement. When someone adds to a pung, a player who can win on that tile may rob the kong, and the kong's declarer pays as the discarder. A concealed kong cannot be robbed, except by a thirteen orphans wait.",
    ),
    "r_win_h": ("食糊", "胡牌", "Winning"),
    "r_win": (
        "食糊係四組牌加一對眼（槓當一組），或者十三么，而且最少要有 {n} 番。",
        "胡牌是四组牌加一对眼（杠当一组），或者十三么，而且最少要有 {n} 番。",
        "A win is four sets and a pair (a kong counts as a set), or thirteen orphans, with at least {n} fan.",
    ),
    "r_limit": (
        "番數上限係 {n} 番（爆棚）。",
        "番数上限是 {n} 番（爆棚）。",
        "Fan are capped at {n} (the limit).",
    ),
    "r_no_limit": ("番數冇上限。", "番数没有上限。", "There is no fan limit."),
    "r_seven_pairs": ("七對子都可以食糊。", "七对子也可以胡牌。", "Seven pairs is also a win."),
    "r_no_seven_pairs": ("七對子唔係食糊。", "七对子不是胡牌。", "Seven pairs is not a win."),
    "r_drawn": (
        "摸晒牌都冇人食糊就流局：冇人要付，莊家連莊。",
        "摸完牌都没有人胡牌就流局：没有人付款，庄家连庄。",
        "If the wall runs out with no winner the hand is drawn: nobody pays and the dealer stays.",
    ),
    "r_pay_h": ("找數", "找数", "Payments"),
    "r_pay": (
        "贏家嘅番數按分數表變成一份。自摸：三家各付一份。",
        "赢家的番数按分数表换算成一份。自摸：三家各付一份。",
        "The winner's fan convert to one share through the score table. Self-draw: each of the three others pays one share.",
    ),
    "r_pay_robbed": (
        "搶槓當食出銃計，加槓者當出銃者。",
        "抢杠当胡出铳计，加杠者当出铳者。",
        "A robbed kong pays as a discard, the kong's declarer as the discarder.",
    ),
    "r_pay_link": (
        "完整分數表同例子：",
        "完整分数表和例子：",
        "The full score table and examples:",
    ),
    "r_liab_h": ("包牌", "包牌", "Liability"),
    "r_liab": (
        "如果你打出嘅牌直接成就以下爆棚牌，你要一個人付晒贏家全部款項，就算佢之後自摸都係：",
        "如果你打出的牌直接成就以下爆棚牌，你要一个人付清赢家全部款项，即使他之后自摸也一样：",
        "If your discard directly completes one of these limit hands, you alone pay the winner's whole win, even if the winner later self-draws:",
    ),
    "r_liab_dragons": (
        "大三元：對方已經明咗兩組三元牌刻子，你打出畀佢碰或槓第三組。",
        "大三元：对方已经明了两组三元牌刻子，你打出让他碰或杠第三组。",
        "Great dragons: the player shows two dragon pungs and your discard gives the third.",
    ),
    "r_liab_winds": (
        "大四喜：對方已經明咗三組風牌刻子，你打出畀佢成第四組。",
        "大四喜：对方已经明了三组风牌刻子，你打出让他成第四组。",
        "Great winds: the player shows three wind pungs and your discard gives the fourth.",
    ),
    "r_liab_kongs": (
        "十八羅漢：你打出畀對方開第四個槓。",
        "十八罗汉：你打出让对方开第四个杠。",
        "Four kongs: your discard gives the player a fourth kong.",
    ),
    "r_no_liab": ("呢個台例冇包牌。", "这个台例没有包牌。", "These rules have no liability."),
    "r_fan_h": ("番種", "番种", "Fan patterns"),
    "r_switches_note": (
        "呢啲係呢個台例嘅開關（同 hkmj rules 列出嘅一樣）。",
        "这些是这个台例的开关（和 hkmj rules 列出的一样）。",
        "These are this ruleset's switches (as hkmj rules lists them).",
    ),
    # -- rules page, clause by clause (seed 003 in its order; seed 002's online policies after)
    "rp_value": ("呢個台例：{v}", "本台例：{v}", "These rules: {v}"),
    "rp_intro": (
        "以下每一段都係本麻雀館規則頁（種子 003）嘅一條規則，後面係所選台例嘅數值；最後係網上對局嘅規矩（種子 002）同埋所有台例開關。",
        "以下每一段都是本麻雀馆规则页（种子 003）的一条规则，后面是所选台例的数值；最后是网上对局的规矩（种子 002）和所有台例开关。",
        "Each paragraph below is one rule of this parlor's rules page (seed 003), followed by the value the chosen rule set gives it; then the online policies (seed 002) and every house-rule switch.",
    ),
    "rp_sources_h": ("出處代號", "出处代号", "Source codes"),
    "rp_src_P": (
        "P：本麻雀館嘅規則頁（種子 003），麻雀館嘅預設台例以佢為先。",
        "P：本麻雀馆的规则页（种子 003），麻雀馆的默认台例以它为先。",
        "P: this parlor's own rules page (seed 003); the parlor's default rules follow it first.",
    ),
    "rp_src_W2": (
        "W2：較新嘅維基百科香港麻雀列表（種子 004）：正統牌型同自訂牌型。",
        "W2：较新的维基百科香港麻将列表（种子 004）：正统牌型和自订牌型。",
        "W2: the newer Wikipedia list of Hong Kong mahjong hands (seed 004): standard and optional patterns.",
    ),
    "rp_src_W1": (
        "W1：較舊嘅維基百科列表（種子 000）。",
        "W1：较旧的维基百科列表（种子 000）。",
        "W1: the older Wikipedia list (seed 000).",
    ),
    "rp_src_C": (
        "C：常用番種列表（種子 001）。",
        "C：常用番种列表（种子 001）。",
        "C: the list of commonly used patterns (seed 001).",
    ),
    "rp_src_ML": (
        "ML：一個網上香港麻雀平台嘅規則頁（種子 002）：佢嘅計番表、付錢表同網上對局政策。",
        "ML：一个网上香港麻将平台的规则页（种子 002）：它的计番表、付钱表和网上对局政策。",
        "ML: an online Hong Kong mahjong platform's rules page (seed 002): its fan and payout tables and online policies.",
    ),
    "rp_yes": ("係", "是", "yes"),
    "rp_no": ("唔係", "否", "no"),
    "rp_not_played": ("唔計", "不计", "not played"),
    "rp_fan": ("{n} 番", "{n} 番", "{n} fan"),
    "rp_seats_h": ("座位、莊家同圈風", "座位、庄家和圈风", "Seats, dealer and rounds"),
    "rp_seats": (
        "四人對局，四個座位以風命名：東、南、西、北。出牌次序係逆時針：東 → 南 → 西 → 北。喺你之前出牌嘅係上家，之後嘅係下家，對面嘅係對家。",
        "四人对局，四个坐位以风命名：东、南、西、北。出牌次序为逆时针：东 → 南 → 西 → 北。在你之前出牌的是上家，在你之后的是下家，对面的是对家。",
        "Four players; the four seats are named after the winds: East, South, West, North. Play goes anticlockwise: East → South → West → North. The player before you is on your left, the one after you on your right, the third across.",
    ),
    "rp_winds": (
        "東位係該局嘅莊家。你座位嘅風係門風；每一圈亦有圈風。碰自己嘅門風或者當圈嘅圈風，都可以計番。",
        "东位是该局的庄家。你坐位的风是门风；每一圈亦有圈风。碰自己的门风或当圈的圈风，都可计番。",
        "East deals the hand. Your seat's wind is your seat wind; each round has a prevailing wind. A pung of your seat wind or of the prevailing wind scores fan.",
    ),
    "rp_winds_v": (
        "門風 {a}，圈風 {b}",
        "门风 {a}，圈风 {b}",
        "seat wind {a}, prevailing wind {b}",
    ),
    "rp_dealer_stays": (
        "莊家食糊或者流局：莊家繼續做莊（連莊），其他不變。",
        "庄家胡牌或流局：庄家继续做庄（连庄），其他不变。",
        "The dealer wins or the hand is drawn: the dealer deals again, nothing else changes.",
    ),
    "rp_deal_passes": (
        "閒家食糊：由下一位做莊，南位變東位，各人嘅門風跟住轉一位。",
        "闲家胡牌：由下一位做庄，南位变东位，各人的门风随之转一位。",
        "Another player wins: the next player deals, South becomes East and every seat wind moves on one place.",
    ),
    "rp_rounds": (
        "莊家輪過四位之後，圈風轉到下一個：東圈、南圈、西圈、北圈。打完東南西北四圈為一局。",
        "庄家轮过四位后，圈风转到下一个：东圈、南圈、西圈、北圈。打完东南西北四圈为一局。",
        "When the deal has gone round all four players the prevailing wind moves on: East, South, West, North rounds. Four rounds make a whole game.",
    ),
    "rp_lengths_h": ("牌局長度", "牌局长度", "Match lengths"),
    "rp_practice_lengths": (
        "麻雀館嘅單人練習可以揀牌局長度：四圈、八局、十六局，或者打到有人破產（每人由 {start} 玉開始，付唔起就付晒手上嘅）。",
        "麻雀馆的单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产（每人由 {start} 玉开始，付不起就付光手上的）。",
        "A practice game at the parlor can be four rounds, 8 hands, 16 hands, or until someone is bankrupt (each starts with {start} jade; whoever cannot cover pays what it holds).",
    ),
    "rp_practice_v": ("練習可以揀：{v}", "练习可选：{v}", "practice offers: {v}"),
    "rp_online_lengths": (
        "線上對局為四局（四手牌，連莊都計）。",
        "线上对局为四局（四手牌，连庄也计）。",
        "An online match is four hands (repeated dealer hands count).",
    ),
    "rp_online_v": ("網上對局：{v}", "网上对局：{v}", "online tables offer: {v}"),
    "rp_league_lengths": (
        "聯賽每場可以係台例提供而會完嘅任何長度，四局一定可以。",
        "联赛每场可以是台例提供而会结束的任何长度，四局一定可以。",
        "A league match can be any length the rules offer that ends; four hands always.",
    ),
    "rp_league_v": ("聯賽：{v}", "联赛：{v}", "leagues offer: {v}"),
    "rp_deal_h": ("砌牌同開牌", "砌牌和开牌", "The wall and the deal"),
    "rp_wall": (
        "所有牌反轉洗勻，砌成四道牌牆，每道 18 疊、每疊兩隻，每人面前一道。",
        "所有牌反转洗匀，砌成四道牌墙，每道 18 叠、每叠两只，每人面前一道。",
        "All the tiles are shuffled face down and built into four walls of 18 stacks of two, one in front of each player.",
    ),
    "rp_wall_v": ("{n} 隻牌", "{n} 只牌", "{n} tiles"),
    "rp_dice": (
        "莊家擲三粒骰。由莊家起計做 1，逆時針數到骰數總和，決定開邊道牌牆，再由嗰道牆右端數相同疊數開牌。",
        "庄家掷三粒骰。由庄家起计为 1，逆时针数到骰数总和，决定开哪一道牌墙，再由该墙右端数相同叠数开牌。",
        "The dealer rolls three dice. Counting the dealer as 1, anticlockwise to the dice total picks the wall; from its right end, the same number of stacks marks where the deal starts.",
    ),
    "rp_deal_tiles": (
        "由開牌處起每次拎四隻，輪三次（每人 12 隻）。莊家再「跳牌」拎兩隻，其他人各拎一隻：莊家 14 隻，其他人 13 隻。",
        "由开牌处起每次拿四只，轮三次（每人 12 只）。庄家再“跳牌”拿两只，其他人各拿一只：庄家 14 只，其他人 13 只。",
        "From there each player takes four tiles at a time, three times (12 each); then the dealer takes two more and the others one: the dealer has 14, the others 13.",
    ),
    "rp_deal_bonus": (
        "由莊家開始，各人按次序將花牌放出，並由牌尾補牌（補花），直至手上冇花牌。",
        "由庄家开始，各人按次序把花牌放出，并从牌尾补牌（补花），直至手上没有花牌。",
        "Starting with the dealer, each player in turn lays out bonus tiles and replaces them from the tail of the wall, until no hand holds one.",
    ),
    "rp_dealer_opens": (
        "莊家先打出一隻牌開局，第一回合唔使摸牌。",
        "庄家先打出一只牌开局，第一回合不用摸牌。",
        "The dealer opens by discarding, without drawing in the first turn.",
    ),
    "rp_draw_ends": (
        "平時由牌頭摸牌；補花同補槓嘅牌由牌尾摸。",
        "平常摸牌由牌头摸；补花和补杠的牌由牌尾摸。",
        "Normal draws come from the head of the wall; bonus and kong replacements from its tail.",
    ),
    "rp_dead_wall": (
        "麻雀館唔留牌尾，所有牌都可以摸。有啲家規會留最後 14 隻唔摸，剩返咁多就流局。",
        "麻雀馆不留牌尾，所有牌都可以摸。有些家规会留最后 14 只不摸，剩下这些牌时便流局。",
        "The parlor keeps no tiles back: every tile can be drawn. Some house rules keep the last 14 tiles back; the hand is drawn when only they remain.",
    ),
    "rp_dead_wall_v0": ("唔留牌尾", "不留牌尾", "no tiles kept back"),
    "rp_dead_wall_vn": ("留最後 {n} 隻", "留最后 {n} 只", "the last {n} tiles kept back"),
    "rp_bonus_h": ("花牌", "花牌", "Bonus tiles"),
    "rp_bonus_never": (
        "八隻花季牌（梅蘭菊竹、春夏秋冬）從來唔入手牌：無論起手定摸牌時拎到，都要翻開放出，再由牌尾補一隻。食糊時按以下計番：",
        "八只花季牌（梅兰菊竹、春夏秋冬）从不放进手牌：无论起手或摸牌时拿到，都要翻开放出，再从牌尾补一只。胡牌时按以下计番：",
        "The eight bonus tiles (plum, orchid, chrysanthemum, bamboo; spring, summer, autumn, winter) never stay in a hand: whenever you get one, at the deal or by a draw, lay it out and draw a replacement from the tail. When you win they score:",
    ),
    "rp_bonus_on": ("打花（八隻花牌）", "打花（八只花牌）", "played with the eight bonus tiles"),
    "rp_bonus_off": ("唔打花", "不打花", "played without bonus tiles"),
    "rp_seat_bonus": (
        "正花：號碼同你座位相同嘅花或者季，每隻計番（東 1、南 2、西 3、北 4）。",
        "正花：号码与你坐位相同的花或季，每只计番（东 1、南 2、西 3、北 4）。",
        "Your own bonus tile: a flower or season whose number matches your seat scores, per tile (East 1, South 2, West 3, North 4).",
    ),
    "rp_bonus_set": (
        "一台花：集齊四隻花或者四隻季，每台計番（已經包括嗰台嘅正花）。",
        "一台花：集齐四只花或四只季，每台计番（已包括该台的正花）。",
        "A complete set: all four flowers or all four seasons, per set (its own bonus tile included).",
    ),
    "rp_no_bonus": (
        "無花：食糊時冇任何花季牌。",
        "无花：胡牌时没有任何花季牌。",
        "No bonus tiles: you win holding none.",
    ),
    "rp_eight_bonus": (
        "八仙過海：集齊全部八隻即時食糊，當自摸計。",
        "八仙过海：集齐全部八只即时胡牌，当自摸计。",
        "All eight bonus tiles: collecting all eight wins at once, paid as a self-draw.",
    ),
    "rp_bonus_rep": (
        "花上自摸：用補花補返嚟嗰隻食糊，另加自摸。",
        "花上自摸：补花补回来的牌胡牌，另加自摸。",
        "Win on a bonus replacement: winning with the tile drawn to replace a bonus tile, plus self-draw.",
    ),
    "rp_turn_h": ("輪到你", "轮到你", "Your turn"),
    "rp_turn": (
        "輪到你時先摸一隻牌（啱啱上或者碰咗別人嘅牌就唔使摸）。手上有 14 隻牌時，你可以宣告暗槓或者加槓（開槓之後補牌；加槓可以畀人搶），或者牌已成糊而且夠番就宣告自摸。最後一定要打出一隻牌。",
        "轮到你时先摸一只牌（刚上碰了别人的牌则不用摸）。手上有 14 只牌时，你可以宣告暗杠或加杠（开杠后补牌；加杠可被抢杠），或者牌已成胡而且够番就宣告自摸。最后必须打出一只牌。",
        "On your turn you first draw a tile (not right after a chow or pung of someone's discard). Holding 14 tiles you may declare a concealed kong or add to a pung (then draw a replacement; an added kong can be robbed), or declare a self-drawn win if the hand is complete and has enough fan. Finally you must discard a tile.",
    ),
    "rp_turn_v": ("起糊 {n} 番", "起胡 {n} 番", "minimum {n} fan"),
    "rp_claims_h": ("食、碰、槓、上", "胡、碰、杠、上", "Claiming a discard"),
    "rp_claim_any": (
        "每隻打出嘅牌，其餘三家都可以要。優先次序：食糊先過碰或者槓，碰或者槓先過上；只有下家可以上。同一隻牌只可能有一家碰得，所以碰牌唔會撞。",
        "每只打出的牌，其余三家都可以取。优先次序：胡牌优先于碰或杠，碰或杠优先于上；只有下家可以上。同一只牌只可能有一家能碰，所以碰牌不会冲突。",
        "Every discard may be claimed by the other three. A win beats a pung or kong, which beats a chow; only the next player may chow. Only one player can pung a given tile, so pungs never clash.",
    ),
    "rp_head_bump": (
        "如果有兩家或以上同時可以食糊，由出牌者之後最先輪到嗰家食（截糊）。",
        "如有两家或以上同时可以胡牌，由出牌者之后最先轮到的一家胡（截胡）。",
        "When several players can win on one discard, the first in turn after the discarder wins (head bump).",
    ),
    "rp_head_bump_v": ("截糊", "截胡", "head bump"),
    "rp_multi_v": ("一炮多響：幾家都食", "一炮多响：几家都胡", "several winners: they all win"),
    "rp_thirteen_exempt_v": (
        "十三幺唔會畀人截糊",
        "十三幺不会被截胡",
        "thirteen orphans cannot be head-bumped",
    ),
    "rp_after_claim": (
        "碰或者上之後即刻打出一隻牌；槓之後先補牌再打。之後由你嘅下家繼續，出牌者同你之間嘅玩家會被跳過。",
        "碰或上之后即打出一只牌；杠之后先补牌再打。之后由你的下家继续，出牌者与你之间的玩家会被跳过。",
        "After a pung or chow you discard at once; after a kong you draw a replacement first. Play goes on from your right; players between the discarder and you are skipped.",
    ),
    "rp_swap_free_v": (
        "打邊隻都得，包括啱啱上或碰嗰隻",
        "打哪只都可以，包括刚上或碰的那只",
        "any tile may go, the one just claimed too",
    ),
    "rp_swap_banned_v": (
        "唔可以打出啱啱上或碰嗰隻（食替）",
        "不可打出刚上或碰的那只（食替）",
        "not the tile just claimed (no swap)",
    ),
    "rp_any_tile": (
        "任何牌都可以食，包括你自己之前打出過嘅牌；放過一次食糊，亦唔影響你之後再食。",
        "任何牌都可以食，包括你自己早前打出过的牌；放过一次食胡，亦不影响你之后再食。",
        "Any tile can be won on, including one you discarded earlier; letting a win pass does not stop you winning later.",
    ),
    "rp_pass_none_v": ("放過食糊冇限制", "放过胡牌没有限制", "passing a win bars nothing"),
    "rp_pass_tile_v": (
        "放過食糊之後，到自己再摸牌之前唔可以食同一隻牌",
        "放过胡牌后，到自己再摸牌之前不可胡同一只牌",
        "after passing a win, not the same tile until your next draw",
    ),
    "rp_pass_wait_v": (
        "放過食糊之後，到自己再摸牌之前唔可以食同一組聽牌（番數較高除外）",
        "放过胡牌后，到自己再摸牌之前不可胡同一组听牌（番数较高除外）",
        "after passing a win, no tile of that wait until your next draw (unless it scores more)",
    ),
    "rp_pung_pass_free_v": (
        "放過碰之後照可以碰",
        "放过碰之后照样可以碰",
        "a passed pung may be taken again",
    ),
    "rp_pung_pass_bar_v": (
        "放過碰之後，到自己再摸牌之前唔可以碰同一隻",
        "放过碰之后，到自己再摸牌之前不可碰同一只",
        "a passed pung is barred until your next draw",
    ),
    "rp_kong_h": ("槓同搶槓", "杠和抢杠", "Kongs and robbing"),
    "rp_kong_kinds": (
        "明槓：手上有三隻，要別人打出嘅第四隻。加槓：喺自己回合，將第四隻加落已經碰咗嘅牌。暗槓：喺自己回合，將手上四隻相同嘅牌宣告做槓。",
        "明杠：手上有三只，取别人打出的第四只。加杠：在自己回合，把第四只加在已碰的牌上。暗杠：在自己回合，把手上四只相同的牌宣告为杠。",
        "An exposed kong: three in hand and another player's fourth. An added kong: on your turn, the fourth tile added to your exposed pung. A concealed kong: on your turn, four of a kind from your hand.",
    ),
    "rp_kong_replacement": (
        "每次開槓之後都要由牌尾補一隻。用補返嚟嗰隻食糊就係槓上開花（槓上自摸），另加自摸。計牌型時槓當刻子計。",
        "每次开杠后都要从牌尾补一只牌。以补回来的牌胡牌就是杠上开花（杠上自摸），另加自摸。计算牌型时杠当刻子计。",
        "Every kong draws a replacement from the tail. Winning with it is a win on a kong replacement, plus self-draw. A kong counts as a pung for every pattern.",
    ),
    "rp_concealed_kong": (
        "暗槓計坎坎糊時仍然當暗刻，但係按標準規則會冇咗門前清；有啲家規就唔受影響。",
        "暗杠计算坎坎胡时仍当暗刻，但按标准规则会失去门前清；有些家规则不受影响。",
        "A concealed kong still counts as a concealed pung for four concealed pungs, but by the standard rule it loses the concealed hand; some house rules keep it.",
    ),
    "rp_ckong_v": (
        "坎坎糊可以有暗槓：{a}；暗槓之後仍計門前清：{b}",
        "坎坎胡可以有暗杠：{a}；暗杠之后仍计门前清：{b}",
        "concealed kongs in four concealed pungs: {a}; concealed hand kept after a concealed kong: {b}",
    ),
    "rp_robbing": (
        "有人加槓時，任何可以用嗰第四隻牌食糊嘅玩家都可以搶嚟食，呢個就係搶槓。加槓者當出銃者付款，佢嘅牌組仍然當碰。",
        "有人加杠时，任何能以那第四只牌胡牌的玩家都可以抢来胡，这就是抢杠。加杠者当出铳者付款，他的牌组仍当作碰。",
        "When someone adds a fourth tile to a pung, anyone who can win on that tile may rob the kong. The declarer pays as the discarder, and the set stays a pung.",
    ),
    "rp_rob_concealed": (
        "暗槓唔可以畀人搶，唯一例外係等緊十三么嘅玩家，可以搶佢要嗰隻暗槓牌。",
        "暗杠不可以被抢，唯一例外是等十三么的玩家，可以抢他需要的那只暗杠牌。",
        "A concealed kong cannot be robbed, except by a player waiting on thirteen orphans for that tile.",
    ),
    "rp_rob_thirteen_yes": (
        "十三幺可以搶暗槓",
        "十三幺可以抢暗杠",
        "thirteen orphans may rob a concealed kong",
    ),
    "rp_rob_thirteen_no": (
        "連十三幺都唔可以搶暗槓",
        "连十三幺也不可以抢暗杠",
        "not even thirteen orphans may rob a concealed kong",
    ),
    "rp_win_h": ("食糊", "胡牌", "Winning"),
    "rp_win_shape": (
        "食糊係四組牌加一對眼（槓當一組），或者十三么，而且要夠起糊番數。",
        "胡牌是四组牌加一对眼（杠当一组），或十三么，而且要够起胡番数。",
        "A win is four sets and a pair (a kong is a set), or thirteen orphans, with at least the minimum fan.",
    ),
    "rp_win_ways": (
        "食糊方式有：自摸（包括槓上開花同花上自摸）；食別人打出嘅牌（對方就係出銃）；搶槓。",
        "胡牌方式有：自摸（包括杠上开花及花上自摸）；胡别人打出的牌（对方即出铳）；抢杠。",
        "You win by a self-draw (on a kong or bonus replacement too), on another player's discard (that player pays as the discarder), or by robbing a kong.",
    ),
    "rp_last_tile": (
        "摸最後一隻牌自摸係海底撈月，食最後一隻打出嘅牌係海底炮。",
        "摸最后一只牌自摸是海底捞月，胡最后一只打出的牌是海底炮。",
        "Winning with the last tile drawn, or on the last tile discarded, scores extra.",
    ),
    "rp_last_any_v": (
        "海底撈月 {a}，海底炮 {b}",
        "海底捞月 {a}，海底炮 {b}",
        "last draw {a}, last discard {b}",
    ),
    "rp_heavenly": (
        "莊家起手 14 隻牌已經成糊係天糊；閒家喺冇人上碰之前食莊家打出嘅第一隻牌係地糊，兩樣都係爆棚牌。",
        "庄家起手 14 只牌已成胡是天胡；闲家在无人上碰之前胡庄家打出的第一只牌是地胡，两者都是爆棚牌。",
        "The dealer's first 14 tiles already complete is a heavenly hand; a non-dealer winning on the dealer's first discard before any claim is an earthly hand: both are limit hands.",
    ),
    "rp_limit_v": ("爆棚 {n} 番", "爆棚 {n} 番", "limit {n} fan"),
    "rp_seven_pairs": (
        "七對子並唔係港式麻雀嘅食糊。",
        "七对子并非港式麻将的胡牌。",
        "Seven pairs is not a Hong Kong mahjong win.",
    ),
    "rp_seven_pairs_no": ("七對子唔係食糊", "七对子不是胡牌", "seven pairs is no win"),
    "rp_seven_pairs_yes": ("七對子可以食糊", "七对子可以胡牌", "seven pairs is a win"),
    "rp_no_false_win": (
        "麻雀館只容許有效嘅食糊，所以遊戲入面唔會詐糊；喺真實牌檯上詐糊要重罰，通常要當三家都食咗爆棚牌咁賠。",
        "麻雀馆只容许有效的食胡，所以游戏中不会诈胡；在真实牌台上诈胡要重罚，通常要当作三家都胡了爆棚牌般赔付。",
        "The parlor accepts only valid wins, so no false win happens in play; at a real table a false win is punished hard, usually paid as if all three had won a limit hand.",
    ),
    "rp_false_win_v": (
        "喺麻雀館唔會發生；計番器照呢個台例計罰款",
        "在麻雀馆不会发生；计番器按本台例计罚款",
        "never at the parlor; the calculator prices it by these rules",
    ),
    "rp_below_min_false": (
        "唔夠番食糊亦算詐糊",
        "不够番胡牌也算诈胡",
        "a win below the minimum is a false win",
    ),
    "rp_below_min_barred": (
        "唔夠番唔算詐糊，但該局唔可以再食糊",
        "不够番不算诈胡，但该局不可再胡",
        "a win below the minimum is no false win, but bars that player for the hand",
    ),
    "rp_drawn_h": ("流局", "流局", "Drawn hands"),
    "rp_drawn_wall": (
        "牌摸完仍然冇人食糊就流局（荒莊）：冇人使付錢，莊家連莊。",
        "牌摸完仍无人胡牌便流局（荒庄）：无人付款，庄家连庄。",
        "When the wall runs out with no winner the hand is drawn: nobody pays and the dealer deals again.",
    ),
    "rp_drawn_replacement": (
        "開槓或者補花時已經冇牌可以補，亦當流局。",
        "开杠或补花时已无牌可补，亦当流局。",
        "When a kong or a bonus tile needs a replacement and none is left, the hand is drawn too.",
    ),
    "rp_drawn_no_pay": (
        "流局時無論有冇聽牌，都唔使付錢。",
        "流局时不论是否已听牌，都不用付款。",
        "In a drawn hand nobody pays, ready or not.",
    ),
    "rp_pay_h": ("找數", "找数", "Payments"),
    "rp_score_table": (
        "贏家嘅番數（有上限）按分數表換算成一份嘅分數；喺標準嘅半辣上表入面，三番係 4 分、六番係 16 分、十番係 64 分。",
        "赢家的番数（有上限）按分数表换算成一份的分数；在标准的半辣上表中，三番是 4 分、六番是 16 分、十番是 64 分。",
        "The winner's fan (up to the limit) become one share through the score table; in the standard half-spicy table 3 fan is 4, 6 fan 16, 10 fan 64.",
    ),
    "rp_score_v": ("上限 {limit}；{shares}", "上限 {limit}；{shares}", "limit {limit}; {shares}"),
    "rp_no_limit": ("冇上限", "没有上限", "no limit"),
    "rp_share_at": ("{n} 番 = {s}", "{n} 番 = {s}", "{n} fan = {s}"),
    "rp_pay_self": (
        "自摸：三家各付一份。",
        "自摸：三家各付一份。",
        "Self-draw: each of the other three pays one share.",
    ),
    "rp_pay_discard": (
        "食出銃（全銃，標準）：出銃者一個人付三份，其餘兩家唔使付。食出銃（半銃，常見麻雀館規則）：出銃者付兩份，其餘兩家各付一份。",
        "食出铳（全铳，标准）：出铳者独付三份，其余两家不用付。食出铳（半铳，常见麻雀馆规则）：出铳者付两份，其余两家各付一份。",
        "On a discard, full gun (standard): the discarder alone pays three shares. Half gun (a common parlor rule): the discarder pays two shares and the other two one each.",
    ),
    "rp_full_gun_v": (
        "全銃，出銃者付 {n} 份",
        "全铳，出铳者付 {n} 份",
        "full gun, the discarder pays {n} shares",
    ),
    "rp_half_gun_v": ("半銃", "半铳", "half gun"),
    "rp_pay_robbed": (
        "搶槓：當食出銃計，加槓者當出銃者。",
        "抢杠：当食出铳计，加杠者当出铳者。",
        "A robbed kong pays as a discard, the declarer as the discarder.",
    ),
    "rp_rob_discard_v": ("當食出銃", "当食出铳", "as a discard"),
    "rp_rob_self_v": (
        "當自摸計，加槓者包付三家",
        "当自摸计，加杠者包付三家",
        "as a self-draw, the declarer paying all three shares",
    ),
    "rp_jade": (
        "完整分數表同例子睇計番教學。麻雀館嘅分數一律用「玉」計，冇任何金錢價值。",
        "完整分数表及例子见计番教学。麻雀馆的分数一律以“玉”计算，没有任何金钱价值。",
        "The full score table and examples are in the scoring guide. The parlor keeps score in jade, which has no money value.",
    ),
    "rp_liab_h": ("包牌", "包牌", "Liability"),
    "rp_liability": (
        "如果你打出嘅牌直接成就某啲爆棚牌，你就要包，一個人付晒贏家全部款項，就算對方之後係自摸都一樣。麻雀館對以下三種牌包牌：",
        "如果你打出的牌直接成就某些爆棚牌，你便要包，独自支付赢家的全部款项，即使对方之后是自摸亦一样。麻雀馆对以下三种牌包牌：",
        "If your discard directly makes certain limit hands possible, you are liable: you alone pay the winner's whole amount, even if the winner later self-draws. The parlor applies this to three hands:",
    ),
    "rp_liab_on": ("有包牌", "有包牌", "liability applies"),
    "rp_liab_off": (
        "冇麻雀館包牌（台例另有包牌開關）",
        "没有麻雀馆包牌（台例另有包牌开关）",
        "no parlor liability (other liability switches may apply)",
    ),
    "rp_house_h": ("台例", "台例", "House rules"),
    "rp_house": (
        "香港每張麻雀檯嘅打法都唔盡相同，開檯之前最好講清楚台例。呢個麻雀館嘅每個分別都係一個開關，列喺下面。",
        "香港每张麻将台的打法都不尽相同，开台前最好先讲清楚台例。本麻雀馆的每个分别都是一个开关，列在下面。",
        "Every Hong Kong table plays a little differently, so agree the house rules before you start. Each difference is a switch here, listed below.",
    ),
    "rp_online_h": ("網上對局", "网上对局", "Playing online"),
    "rp_table_value": (
        "每張檯嘅賭注就係佢嘅牌桌價值：出銃最高番要付嘅數。開檯嘅人揀一個倍數：賭注 = 牌桌價值 × 倍數（0 倍係免費檯）。",
        "每张台的赌注就是它的牌桌价值：出铳最高番要付的数。开台的人选一个倍数：赌注 = 牌桌价值 × 倍数（0 倍是免费台）。",
        "A table's stake is its table value: what a discard at the top fan pays. Its creator picks a level: stake = table value × level (level 0 is a free table).",
    ),
    "rp_table_value_v": (
        "牌桌價值 {v} 玉；倍數 {levels}",
        "牌桌价值 {v} 玉；倍数 {levels}",
        "table value {v} jade; levels {levels}",
    ),
    "rp_one_hand": (
        "打單局時，輸贏直接按付錢表計。打幾局嘅話分數累積，完場先用付錢表計總輸贏：輸家付嘅數唔會多過佢嘅賭注，贏家按分數比例分。",
        "打单局时，输赢直接按付钱表计算。打多局的话分数累积，完场才用付钱表计算总输赢：输家付的数不会多过他的赌注，赢家按分数比例分配。",
        "A single hand is paid straight from the payout table. Over several hands the scores add up and are settled at the end: a loser never pays more than the stake, and the winners share in proportion to their scores.",
    ),
    "rp_cancel": (
        "對局被取消或者中止，賭注同手續費全數退還。",
        "对局被取消或中止，赌注和手续费全数退还。",
        "A match that is cancelled or aborted refunds every stake and fee.",
    ),
    "rp_disconnect": (
        "斷線：網上檯如果你斷咗線超過 {grace} 秒，你個位就會停玩；練習檯一斷線就暫停，等你返嚟。",
        "断线：网上台如果你断线超过 {grace} 秒，你的座位便会停玩；练习台一断线就暂停，等你回来。",
        "Disconnecting: at an online table, after more than {grace} seconds away your seat is sat out; a practice table pauses at once and waits for you.",
    ),
    # The idle rule as the table actor implements it (parlor/table.py ``Seat.timeouts`` and
    # ``missed_claim``; docs/protocol.md *Timing, clocks and the online policy*, Sat out 2-3).
    "rp_idle": (
        "冇郁：連續兩次輪到你都超時，或者食、碰、槓嘅機會超時之後連跟住輪到你嗰次都超時（即係兩圈都冇任何動作），你個位就會停玩。單單一次機會超時、之後照打，唔計。",
        "不动：连续两次轮到你都超时，或者胡、碰、杠的机会超时之后连紧接着轮到你那次也超时（即两圈都没有任何动作），你的座位便会停玩。只是一次机会超时、之后照常出牌，不算。",
        "Idle: your seat is sat out if two of your own turns in a row run out of time, or if a claim window runs out and then your next own turn does too (two rounds without any action). A claim window alone running out, followed by a turn you play, does not count.",
    ),
    "rp_sat_out": (
        "停玩嘅位由電腦代打：每次都唔食唔碰、打出啱啱摸到嗰隻，唔會食糊；你冇返嚟之前一直係咁。",
        "停玩的座位由电脑代打：每次都不胡不碰、打出刚摸到的那只，不会胡牌；你没回来之前一直如此。",
        "A sat-out seat is played for you: it claims nothing, discards the tile it drew and never wins, for as long as you are away.",
    ),
    "rp_sit_back": (
        "返嚟：重新連線返張檯之後撳「回座」，就由下一個決定開始自己打返。",
        "回来：重新连线回到牌台后按“回座”，就从下一个决定开始自己打。",
        "Coming back: reconnect to the table and press “Sit back”; you play again from your next decision.",
    ),
    "rp_grace_v": ("斷線寬限 {grace} 秒", "断线宽限 {grace} 秒", "grace {grace} s"),
    "rp_switch_h": ("所有台例開關", "所有台例开关", "Every house-rule switch"),
    "rp_switch_col": ("開關", "开关", "Switch"),
    "rp_switch_value": ("呢個台例", "本台例", "These rules"),
    "rp_switch_meaning": ("意思同出處", "意思和出处", "Meaning and source"),
    # -- the house-rule switches by name, and their enumerated values (rules page)
    "rs_seven_pairs": ("七對子算食糊", "七对子算胡牌", "Seven pairs is a win"),
    "rs_thirteen_orphans_head_bump_exempt": (
        "十三幺唔會畀人截糊",
        "十三幺不会被截胡",
        "Thirteen orphans cannot be head-bumped",
    ),
    "rs_multiple_winners": ("一炮多響", "一炮多响", "Several winners on one discard"),
    "rs_dead_wall": ("留牌尾（隻）", "留牌尾（张）", "Tiles kept back at the tail"),
    "rs_pass_rule": ("食糊過水", "胡牌过水", "Passing a win"),
    "rs_pung_pass_rule": ("碰牌過水", "碰牌过水", "Passing a pung"),
    "rs_no_swap_discard": (
        "唔准食替（上碰之後打返同一隻）",
        "不准食替（上碰后打回同一张）",
        "No discarding the tile just claimed",
    ),
    "rs_rob_concealed_kong_thirteen": (
        "十三幺可以搶暗槓",
        "十三幺可以抢暗杠",
        "Thirteen orphans may rob a concealed kong",
    ),
    "rs_bonus_tiles": ("打花", "打花", "Bonus tiles in play"),
    "rs_bonus_win_seven": ("花糊（七隻花即食）", "花胡（七张花即胡）", "Seven bonus tiles win"),
    "rs_false_win_below_minimum": (
        "唔夠番食糊算詐糊",
        "不够番胡牌算诈胡",
        "A win below the minimum is a false win",
    ),
    "rs_match_lengths": ("牌局長度", "牌局长度", "Match lengths"),
    "rs_last_tile": ("海底計番", "海底计番", "Last-tile wins that score"),
    "rs_heavenly_after_concealed_kong": (
        "暗槓之後仍計天糊／人糊",
        "暗杠之后仍计天胡／人胡",
        "Heavenly hand after one's own concealed kong",
    ),
    "rs_earthly_after_dealer_kong": (
        "莊家開槓之後仍計地糊",
        "庄家开杠之后仍计地胡",
        "Earthly hand after the dealer's kong",
    ),
    "rs_bonus_win_decline": ("可以唔食花糊", "可以不胡花胡", "A bonus win may be declined"),
    "rs_bonus_win_kong_replacement": (
        "槓上花糊計槓上開花",
        "杠上花胡计杠上开花",
        "A bonus win on a kong replacement adds the kong win",
    ),
    "rs_bonus_win_at_deal": ("開牌已有七隻花", "开牌已有七张花", "Seven bonus tiles at the deal"),
    "rs_all_chows_honour_pair": (
        "平糊可以番子做眼",
        "平胡可以番子做眼",
        "All chows with an honour pair",
    ),
    "rs_all_chows_any_wait": ("平糊唔限聽牌", "平胡不限听牌", "All chows on any wait"),
    "rs_concealed_kong_keeps_concealed": (
        "暗槓之後仍計門前清",
        "暗杠之后仍计门前清",
        "Concealed hand kept after a concealed kong",
    ),
    "rs_concealed_hand_with_bonus_tiles": (
        "有花都計門前清",
        "有花也计门前清",
        "Concealed hand counted with bonus tiles",
    ),
    "rs_four_concealed_pungs_kongs": (
        "坎坎糊可以有暗槓",
        "坎坎胡可以有暗杠",
        "Concealed kongs in four concealed pungs",
    ),
    "rs_four_concealed_pungs_single_wait_discard": (
        "單吊食出銃仍計坎坎糊",
        "单吊胡出铳仍计坎坎胡",
        "Four concealed pungs on a single-wait discard",
    ),
    "rs_four_concealed_pungs_any_win": (
        "坎坎糊食出銃都計",
        "坎坎胡胡出铳也计",
        "Four concealed pungs on any win",
    ),
    "rs_double_kong_from_replacement": (
        "槓上槓要第二槓來自補牌",
        "杠上杠要第二杠来自补牌",
        "Double kong needs the second from the replacement",
    ),
    "rs_nine_gates_discard_nine_sided_only": (
        "九蓮食出銃要九面聽",
        "九莲胡出铳要九面听",
        "Nine gates on a discard only with the nine-sided wait",
    ),
    "rs_bonus_win_hand": ("花糊同手牌成糊", "花胡与手牌成胡", "A bonus win with a complete hand"),
    "rs_bonus_set_adds_seat_bonus": (
        "一台花另加正花",
        "一台花另加正花",
        "A bonus set adds its own bonus tile",
    ),
    "rs_nine_gates_with_melds": (
        "九蓮可以有上碰",
        "九莲可以有上碰",
        "Nine gates with declared sets",
    ),
    "rs_mixed_terminals_all_honours": (
        "全番子亦計花幺九",
        "全番子也计花幺九",
        "Mixed terminals on an all-honours hand",
    ),
    "rd_match_lengths": (
        "呢個台例嘅來源提供嘅牌局長度；每種檯可以揀邊啲見上面「牌局長度」（P 所列）。",
        "本台例来源提供的牌局长度；每种台可选哪些见上面“牌局长度”（P 所列）。",
        "The match lengths the rules' source offers; which each kind of table may play is under Match lengths above (P's list).",
    ),
    "rd_bonus_win_hand": (
        "花糊／八仙過海而手牌同時成糊：分開計，只計花糊（W2、C）；或者手牌番數加埋花糊，食出銃亦然（W2 花糊牌規）；或者手牌係爆棚牌就以手牌計。",
        "花胡／八仙过海而手牌同时成胡：分开计，只计花胡（W2、C）；或者手牌番数加上花胡，胡出铳亦然（W2 花胡牌规）；或者手牌是爆棚牌就以手牌计。",
        "A bonus win (seven or eight bonus tiles) with a complete hand: apart, the bonus win alone (W2, C); or the hand's fan plus the bonus win, on a discard too (W2's bonus-win rules); or a limit hand beats the bonus win.",
    ),
    "rv_PassRule_none": ("冇過水", "没有过水", "none"),
    "rv_PassRule_same_tile": ("同一隻牌", "同一张牌", "the same tile"),
    "rv_PassRule_same_wait": ("同一組聽牌", "同一组听牌", "the same wait"),
    "rv_LastTileRule_any": ("自摸或者食出銃都計", "自摸或胡出铳都计", "drawn or discarded"),
    "rv_LastTileRule_self_drawn_only": ("只計自摸", "只计自摸", "self-drawn only"),
    "rv_DealBonusWin_heavenly_earthly": (
        "莊家計天糊，閒家計地糊",
        "庄家计天胡，闲家计地胡",
        "the dealer scores heavenly, a non-dealer earthly",
    ),
    "rv_DealBonusWin_wait_first_draw": (
        "閒家要等第一次摸牌，唔計地糊",
        "闲家要等第一次摸牌，不计地胡",
        "a non-dealer waits for its first draw, no earthly hand",
    ),
    "rv_BonusWinHand_apart": ("分開計，只計花糊", "分开计，只计花胡", "apart: the bonus win alone"),
    "rv_BonusWinHand_adds": (
        "手牌番數加埋花糊",
        "手牌番数加上花胡",
        "the hand's fan plus the bonus win",
    ),
    "rv_BonusWinHand_limit_beats": (
        "手牌係爆棚牌就計手牌",
        "手牌是爆棚牌就计手牌",
        "a limit hand beats the bonus win",
    ),
    # -- table page
    "table_title": ("牌檯", "牌台", "Table"),
    "t_you": ("你", "你", "You"),
    "t_dealer": ("莊", "庄", "Dealer"),
    "t_round": ("{w}圈", "{w}圈", "{w} round"),
    "t_hand_no": ("第 {n} 局", "第 {n} 局", "Hand {n}"),
    "t_wall": ("牌牆 {n}", "牌墙 {n}", "Wall {n}"),
    "t_tiles": ("{n} 隻", "{n} 只", "{n} tiles"),
    "t_right": ("下家", "下家", "Right"),
    "t_across": ("對家", "对家", "Across"),
    "t_left": ("上家", "上家", "Left"),
    "t_waiting": ("等待其他玩家…", "等待其他玩家…", "Other players are thinking…"),
    "t_waiting_for": ("等緊 {who}…", "等待 {who}…", "Waiting for {who}…"),
    "t_waiting_players": (
        "等緊其他玩家入座…",
        "等待其他玩家入座…",
        "Waiting for players to sit down…",
    ),
    "t_your_turn": (
        "輪到你：揀一隻牌打出",
        "轮到你：选一只牌打出",
        "Your turn: choose a tile to discard",
    ),
    "t_claim_on": ("{who} 打出：要唔要？", "{who} 打出：要不要？", "{who} discarded: claim it?"),
    "t_rob_on": ("{who} 加槓：搶唔搶？", "{who} 加杠：抢不抢？", "{who} adds a kong: rob it?"),
    "t_discard": ("打出", "打出", "Discard"),
    "t_win": ("食糊", "胡牌", "Win"),
    "t_self_draw": ("自摸", "自摸", "Self-draw"),
    "t_pung": ("碰", "碰", "Pung"),
    "t_kong": ("槓", "杠", "Kong"),
    "t_chow": ("上", "吃", "Chow"),
    "t_pass": ("過", "过", "Pass"),
    "t_concealed_kong": ("暗槓", "暗杠", "Concealed kong"),
    "t_added_kong": ("加槓", "加杠", "Add kong"),
    "t_bonus_win": ("花糊", "花胡", "Bonus win"),
    "t_choose_chow": ("揀邊個上：", "选哪个吃：", "Which chow:"),
    "t_hint": ("提示", "提示", "Hint"),
    "t_sit_back": ("回座", "回座", "Take my seat back"),
    "t_sat_out_me": (
        "你已被暫代（自動打牌）。",
        "你已被暂代（自动打牌）。",
        "You are sat out: a passive player is playing for you.",
    ),
    "st_connected": ("在線", "在线", "online"),
    "st_away": ("離線", "离线", "away"),
    "st_sat_out": ("暫代", "暂代", "sat out"),
    "st_bot": ("電腦", "电脑", "bot"),
    "st_empty": ("空位", "空位", "empty"),
    "t_hand_over": ("本局完", "本局完", "Hand over"),
    "t_drawn_hand": ("流局", "流局", "Drawn hand"),
    "t_wins": ("{who} 食糊", "{who} 胡牌", "{who} wins"),
    "t_you_win": ("你食糊", "你胡牌", "You win"),
    "t_self_drawn": ("自摸", "自摸", "self-drawn"),
    "t_on_discard_of": ("食 {who} 出銃", "胡 {who} 出铳", "on {who}'s discard"),
    "t_robbing_of": ("搶 {who} 嘅槓", "抢 {who} 的杠", "robbing {who}'s kong"),
    "t_on_your_discard": ("食你出銃", "胡你出铳", "on your discard"),
    "t_robbing_you": ("搶你嘅槓", "抢你的杠", "robbing your kong"),
    "t_claim_tile": (
        "{who} 打出 {tile}：要唔要？",
        "{who} 打出 {tile}：要不要？",
        "{who} discarded {tile}: claim it?",
    ),
    "wclose_4401": (
        "未登入：請先登入或者用訪客身份玩",
        "未登录：请先登录或以访客身份玩",
        "not signed in: log in or play as a guest first",
    ),
    "wclose_4403": (
        "冇權睇呢張檯（私人檯要邀請連結）",
        "没有权限看这张台（私人台要邀请链接）",
        "you may not watch this table (a private table needs its invite link)",
    ),
    "wclose_4404": ("搵唔到呢張檯", "找不到这张台", "there is no such table"),
    "wclose_4409": (
        "你喺另一個視窗打開咗呢張檯",
        "你在另一个窗口打开了这张台",
        "this table was opened in another window",
    ),
    "wclose_4429": ("旁觀人數已滿", "旁观人数已满", "too many people are watching"),
    "t_liable": ("{who} 包牌", "{who} 包牌", "{who} is liable"),
    "t_hands": ("各家手牌", "各家手牌", "Everyone's hand"),
    "t_payments": ("找數", "找数", "Payments"),
    "t_standings": ("排名", "排名", "Standings"),
    "t_player": ("玩家", "玩家", "Player"),
    "t_this_hand": ("今局", "今局", "This hand"),
    "t_total": ("累計", "累计", "Total"),
    "t_match_over": ("全場完", "全场完", "Match over"),
    "t_settlement": ("結算", "结算", "Settlement"),
    "t_jade_moved": ("輸贏（玉）", "输赢（玉）", "Jade won or lost"),
    "t_record": ("下載牌譜", "下载牌谱", "Download the record"),
    "t_seed": ("種子", "种子", "Seed"),
    "t_commitment": ("承諾", "承诺", "Commitment"),
    "t_next_hand": ("下一局快將開始…", "下一局快将开始…", "The next hand starts shortly…"),
    "t_next_hand_btn": ("下一局", "下一局", "Next hand"),
    "t_next_in": (
        "{s} 秒後自動開始下一局",
        "{s} 秒后自动开始下一局",
        "The next hand starts by itself in {s} s",
    ),
    "t_next_wait": (
        "準備好就撳「下一局」",
        "准备好就按“下一局”",
        "Press “Next hand” when you are ready",
    ),
    "t_ready_sent": (
        "已準備，等候其他玩家…",
        "已准备，等候其他玩家…",
        "Ready: waiting for the others…",
    ),
    "t_play_again": ("再玩一場", "再玩一场", "Play again"),
    "t_back_lobby": ("返回大堂", "返回大堂", "Back to the lobby"),
    "t_pause_leave": ("暫停，遲啲再玩", "暂停，稍后再玩", "Pause and play later"),
    "t_leave_table": ("離座", "离座", "Leave the table"),
    "t_left_refund": (
        "你已離座，退回 {n} 玉",
        "你已离座，退回 {n} 玉",
        "You left the table; {n} jade returned",
    ),
    "t_table_started": ("你張檯開始咗！", "你的牌桌开始了！", "Your table has started!"),
    "t_your_turn_title": ("輪到你", "轮到你", "Your turn"),
    "t_reconnecting": (
        "連線中斷，重新連線…",
        "连线中断，重新连线…",
        "Connection lost, reconnecting…",
    ),
    "t_closed": ("連線已關閉：{why}", "连线已关闭：{why}", "Connection closed: {why}"),
    "werr_no_prompt": ("而家唔使你決定", "现在不用你决定", "nothing to decide now"),
    "werr_stale": ("嗰個提示已經過咗", "那个提示已经过了", "that prompt has already closed"),
    "werr_illegal": ("而家唔可以咁做", "现在不能这样做", "that is not possible now"),
    "werr_rate_limited": ("太快喇，請慢啲", "太快了，请慢一点", "too many messages; slow down"),
    "werr_table_closed": ("呢張檯已經完咗", "这张桌已经结束", "the table is over"),
    "werr_not_sat_out": ("你冇被暫代", "你没有被暂代", "you are not sat out"),
    "werr_no_hints": (
        "只有練習檯有提示",
        "只有练习桌有提示",
        "hints exist at practice tables only",
    ),
    "werr_internal": ("伺服器出錯，請重試", "服务器出错，请重试", "the server failed; try again"),
    "werr_not_seated": ("旁觀者唔可以出牌", "旁观者不能出牌", "spectators cannot act"),
    "werr_bad_json": ("收到嘅訊息唔係 JSON", "收到的消息不是 JSON", "the message is not JSON"),
    "werr_bad_message": ("收到嘅訊息格式唔啱", "收到的消息格式不对", "the message is malformed"),
    "werr_too_large": ("訊息太長", "消息太长", "the message is too long"),
    "werr_proto": (
        "版本唔夾，請重新載入頁面",
        "版本不匹配，请重新加载页面",
        "the page is out of date; reload it",
    ),
    "werr_hello_first": ("仲連緊線，請等等", "还在连线，请稍等", "still connecting; wait a moment"),
    "werr_commit_failed": (
        "儲存唔到，動作冇生效：請再決定一次",
        "保存失败，动作没有生效：请再决定一次",
        "could not be saved, so it did not happen: decide again",
    ),
    "t_error": ("錯誤：{why}", "错误：{why}", "Error: {why}"),
    # -- spectators (旁觀)
    "t_watching": ("旁觀中", "旁观中", "Watching"),
    "t_watchers": ("{n} 人旁觀", "{n} 人旁观", "{n} watching"),
    "t_behind_turn": ("比檯面遲一手", "比桌面迟一手", "one turn behind the table"),
    "t_behind_s": ("比檯面遲 {n} 秒", "比桌面迟 {n} 秒", "{n} s behind the table"),
    "t_replay_hand": ("重播呢局", "重播这局", "Replay this hand"),
    # -- replays (牌譜重播)
    "replay_title": ("牌譜重播", "牌谱重播", "Replay"),
    "rp_loading": ("載入緊…", "载入中…", "Loading…"),
    "rp_err_forbidden": (
        "呢張係私人檯：要有佢嘅邀請連結先睇得",
        "这是私人桌：要有它的邀请链接才能看",
        "This table is private: its invite link is needed",
    ),
    "rp_err_not_found": ("搵唔到呢張檯或者呢局", "找不到这张桌或这局", "No such table or hand"),
    "rp_err_not_over": ("呢局未完", "这局未完", "This hand is not over"),
    "rp_err_bad_request": ("條連結唔啱", "链接不对", "The link is not right"),
    "rp_hand": ("局", "局", "Hand"),
    "rp_hand_item": ("第 {n} 局（{w}圈）", "第 {n} 局（{w}圈）", "Hand {n} ({w} round)"),
    "rp_hand_live": ("進行中", "进行中", "in play"),
    "rp_hand_drawn": ("流局", "流局", "drawn"),
    "rp_hand_won": ("{who} 食糊", "{who} 胡牌", "won by {who}"),
    "rp_view": ("視角", "视角", "View"),
    "rp_scrub": ("步數", "步数", "Step"),
    "rp_open": ("全開", "全开", "All hands open"),
    "rp_first": ("第一步", "第一步", "First step"),
    "rp_prev": ("上一步", "上一步", "Back one step"),
    "rp_next": ("下一步", "下一步", "Forward one step"),
    "rp_last": ("最後一步", "最后一步", "Last step"),
    "rp_step": ("第 {k} / {n} 步", "第 {k} / {n} 步", "Step {k} of {n}"),
    "rp_start": ("開局", "开局", "The deal"),
    "rp_share": ("分享連結", "分享链接", "Share link"),
    "rp_copy": ("複製", "复制", "Copy"),
    "rp_copied": ("已複製", "已复制", "Copied"),
    "rp_download": (
        "下載整場牌譜（JSON Lines）",
        "下载整场牌谱（JSON Lines）",
        "Download the record (JSON Lines)",
    ),
    "rp_verify_hint": (
        "用 hkmj replay --verify 檔案 可以逐步核對",
        "用 hkmj replay --verify 文件 可以逐步核对",
        "Check it step by step with hkmj replay --verify FILE",
    ),
    "rp_playing_note": (
        "呢局進行緊：只睇到你自己嘅位，遲一手",
        "这局进行中：只能看你自己的位置，迟一手",
        "This hand is being played: your own seat only, one turn behind",
    ),
    "rp_keys": (
        "鍵盤：←/→ 一步，Home/End 頭尾",
        "键盘：←/→ 一步，Home/End 头尾",
        "Keys: ←/→ one step, Home/End first/last",
    ),
    "rp_draws": ("{who} 摸牌", "{who} 摸牌", "{who} draws"),
    "rp_discards": ("{who} 打出", "{who} 打出", "{who} discards"),
    "rp_claims": ("{who} {what}", "{who} {what}", "{who}: {what}"),
    "rp_bonus": ("{who} 補花", "{who} 补花", "{who} shows a bonus tile"),
    "rp_passes": ("{who} 過", "{who} 过", "{who} passes"),
    "rp_exhausted": ("荒莊：冇牌摸", "荒庄：没牌摸", "No tile left: the hand is drawn"),
    # -- 覆盤 the review of a hand on the replay page, its link at a match's end, the accuracy
    #    chart of a player's record (docs/review.md)
    "rvw_button": ("覆盤", "复盘", "Review"),
    "rvw_button_seat": ("覆盤 {who}", "复盘 {who}", "Review {who}"),
    "rvw_match_link": ("覆盤呢場", "复盘这场", "Review this match"),
    "rvw_title": ("覆盤：{who}", "复盘：{who}", "Review: {who}"),
    "rvw_running": (
        "覆盤緊…已經 {s} 秒（每個決定都要試打好多次，一局要幾十秒）",
        "复盘中…已经 {s} 秒（每个决定都要试打很多次，一局要几十秒）",
        "Reviewing… {s} s so far (every decision is played out many times: a hand takes tens of seconds)",
    ),
    "rvw_busy": (
        "而家太多人覆盤緊，請遲一分鐘再試",
        "现在复盘的人太多，请一分钟后再试",
        "Reviews are busy: try again in a minute",
    ),
    "rvw_failed": ("覆盤唔到（{why}）", "无法复盘（{why}）", "Could not review ({why})"),
    "rvw_retry": ("再試", "再试", "Try again"),
    "rvw_close": ("收埋覆盤", "收起复盘", "Close the review"),
    "rvw_summary": (
        "準確率 {a}（{n} 個決定）",
        "准确率 {a}（{n} 个决定）",
        "Accuracy {a} of {n} decisions",
    ),
    "rvw_total_loss": (
        "預計總損失 {l} ± {se} 玉",
        "预计总损失 {l} ± {se} 玉",
        "Total expected loss {l} ± {se} jade",
    ),
    "rvw_counts": (
        "好 {g}・疑問手 {i}・錯著 {m}・大錯 {b}",
        "好 {g}・疑问手 {i}・错着 {m}・大错 {b}",
        "good {g} · inaccuracy {i} · mistake {m} · blunder {b}",
    ),
    "rvw_settings": (
        "每個決定喺你睇得到嘅資料上試打 {n} 次以上；損失未超過 {z} 個標準誤差就唔當錯；另有 {f} 個冇得揀嘅動作唔計。",
        "每个决定在你看得到的信息上试打 {n} 次以上；损失未超过 {z} 个标准误差就不算错；另有 {f} 个没得选的动作不计。",
        "Every decision played out {n}+ times on what the seat could see; a loss within {z} standard errors is never called an error; {f} forced action(s) not counted.",
    ),
    "rvw_none": (
        "呢局冇要揀嘅決定",
        "这局没有要选的决定",
        "No decision to review in this hand",
    ),
    "rvw_timeline": ("{who} 嘅決定", "{who} 的决定", "{who}: the decisions"),
    "rvw_marker": (
        "第 {k} 個決定：{v}",
        "第 {k} 个决定：{v}",
        "Decision {k}: {v}",
    ),
    "rvw_pick": (
        "撳一個標記：重播會跳去嗰一步，仲會講你點揀、覆盤點揀同點解。",
        "点一个标记：重播会跳到那一步，并说明你的选择、复盘的选择和原因。",
        "Tap a marker: the replay jumps to that step and shows what was played, what the review prefers and why.",
    ),
    "rvw_prev": ("上一個決定", "上一个决定", "Previous decision"),
    "rvw_next": ("下一個決定", "下一个决定", "Next decision"),
    "rvw_v_good": ("好", "好", "good"),
    "rvw_v_inaccuracy": ("疑問手", "疑问手", "inaccuracy"),
    "rvw_v_mistake": ("錯著", "错着", "mistake"),
    "rvw_v_blunder": ("大錯", "大错", "blunder"),
    "rvw_v_unreviewed": ("未評", "未评", "not reviewed"),
    "rvw_detail_head": (
        "第 {k} 個決定・牌牆剩 {n} 隻",
        "第 {k} 个决定・牌墙剩 {n} 张",
        "Decision {k} · {n} tiles left in the wall",
    ),
    "rvw_played": ("實際打法", "实际打法", "Played"),
    "rvw_best": ("覆盤建議", "复盘建议", "The review prefers"),
    "rvw_agrees": ("覆盤同意呢個打法", "复盘同意这个打法", "The review agrees with it"),
    "rvw_loss": (
        "損失 {l} ± {se} 玉（{n} 個樣本）",
        "损失 {l} ± {se} 玉（{n} 个样本）",
        "Loss {l} ± {se} jade ({n} samples)",
    ),
    "rvw_noise": (
        "差別喺雜訊之內，唔當錯",
        "差别在噪声之内，不算错",
        "within the noise: not called an error",
    ),
    "rvw_not_reviewed": (
        "呢個決定評唔到",
        "这个决定无法评估",
        "This decision could not be reviewed",
    ),
    "rvw_now": ("之前差 {n} 向聽", "之前差 {n} 向听", "{n} away from ready before it"),
    "rvw_now_ready": ("之前已經聽牌", "之前已经听牌", "ready before it"),
    "rvw_route": (
        "番路：{fans}（差 {n} 步）",
        "番路：{fans}（差 {n} 步）",
        "route: {fans} ({n} step(s) away)",
    ),
    "rvw_risk": ("預計放銃代價 {x} 玉", "预计放铳代价 {x} 玉", "expected deal-in cost {x} jade"),
    "rvw_candidates": ("試打過嘅選擇", "试打过的选择", "Candidates played out"),
    "rvw_cand_diff": (
        "比實際打法 {d} ± {se} 玉",
        "比实际打法 {d} ± {se} 玉",
        "{d} ± {se} jade against the played action",
    ),
    "rvw_false_win": ("詐糊", "诈胡", "False win"),
    "pl_acc_chart": ("覆盤準確率", "复盘准确率", "Review accuracy"),
    "pl_acc_caption": (
        "由 {a} 至 {b} 覆盤過 {n} 局：{g} / {d} 個決定評為好（{p}），最近一局 {x}%。",
        "由 {a} 至 {b} 复盘过 {n} 局：{g} / {d} 个决定评为好（{p}），最近一局 {x}%。",
        "From {a} to {b}, {n} hands reviewed: {g} of {d} decisions judged good ({p}); the latest hand {x}%.",
    ),
    "pl_acc_note": (
        "每一點係一局嘅準確率（評為好嘅決定佔幾多）；只計有人喺牌譜重播開過「覆盤」嘅牌局。",
        "每一点是一局的准确率（评为好的决定占多少）；只计有人在牌谱重播打开过“复盘”的牌局。",
        "Each point is one hand's accuracy (the share of its decisions judged good); only hands someone has reviewed on the replay page count.",
    ),
    "pl_no_acc": (
        "未有覆盤過嘅牌局：喺牌譜重播撳「覆盤」就會記低。",
        "还没有复盘过的牌局：在牌谱重播点“复盘”就会记下。",
        "No hand reviewed yet: press Review on a replay to add one.",
    ),
    # -- the wall check (驗牌牆)
    "w_title": ("驗牌牆", "验牌墙", "Wall check"),
    "w_intro": (
        "開局前公開咗牌牆種子嘅承諾（SHA-256），局後先公開種子：喺你瀏覽器入面計一次，就知牌牆係咪開局前已經定咗。",
        "开局前公开了牌墙种子的承诺（SHA-256），局后才公开种子：在你的浏览器里算一次，就知道牌墙是否开局前已经定好。",
        "Before the hand its wall's commitment (a SHA-256) was published; the seed is revealed after it. Your browser hashes the seed here: if it matches, the wall was fixed before play.",
    ),
    "w_commitment": (
        "開局時公開嘅承諾",
        "开局时公开的承诺",
        "Commitment shown at the hand's start",
    ),
    "w_seed": ("局後公開嘅種子", "局后公开的种子", "Seed revealed at the hand's end"),
    "w_check": ("驗證", "验证", "Check"),
    "w_pending": (
        "呢局未完：種子要局後先公開。",
        "这局未完：种子要局后才公开。",
        "The hand is not over: its seed is revealed at its end.",
    ),
    "w_ok": (
        "✓ 種子嘅 SHA-256 同承諾一樣",
        "✓ 种子的 SHA-256 与承诺一致",
        "✓ The seed's SHA-256 is the commitment",
    ),
    "w_bad": (
        "✗ 種子嘅 SHA-256 同承諾唔一樣",
        "✗ 种子的 SHA-256 与承诺不一致",
        "✗ The seed's SHA-256 is not the commitment",
    ),
    "w_deal_ok": (
        "✓ 由種子洗牌、擲骰、砌牌，發出嚟嘅牌同呢局一樣",
        "✓ 由种子洗牌、掷骰、砌牌，发出来的牌与这局一致",
        "✓ Shuffled, rolled and built from the seed, the wall deals exactly this hand",
    ),
    "w_deal_bad": (
        "✗ 由種子砌出嚟嘅牌牆發唔出呢局嘅牌",
        "✗ 由种子砌出来的牌墙发不出这局的牌",
        "✗ The wall built from the seed does not deal this hand",
    ),
    "w_match_ok": (
        "✓ 呢局種子由整場種子得出，整場種子亦同開場承諾一樣",
        "✓ 这局种子由整场种子得出，整场种子也与开场承诺一致",
        "✓ This seed follows from the match seed, which matches the match's commitment",
    ),
    "w_match_bad": (
        "✗ 呢局種子唔係由整場種子得出",
        "✗ 这局种子不是由整场种子得出",
        "✗ This seed does not follow from the match seed",
    ),
    "w_dice": ("骰：{a}+{b}+{c}={n}", "骰：{a}+{b}+{c}={n}", "Dice: {a}+{b}+{c}={n}"),
    "w_wall": (
        "由種子砌出嘅牌牆（摸牌次序）",
        "由种子砌出的牌墙（摸牌次序）",
        "The wall built from the seed (in drawing order)",
    ),
    "w_no_crypto": (
        "呢個瀏覽器冇 WebCrypto：用內置嘅 SHA 計",
        "这个浏览器没有 WebCrypto：用内置的 SHA 计算",
        "No WebCrypto in this browser: hashed with the page's own SHA code",
    ),
    "t_keys": (
        "鍵盤：←/→ 揀牌，Enter 打出，w 食糊，p 碰，k 槓，c 上，x 過，h 提示，1–3 揀上，n 下一局",
        "键盘：←/→ 选牌，Enter 打出，w 胡牌，p 碰，k 杠，c 吃，x 过，h 提示，1–3 选吃，n 下一局",
        "Keys: ←/→ select, Enter discard, w win, p pung, k kong, c chow, x pass, h hint, 1–3 pick a chow, n next hand",
    ),
    "t_clock": ("{s} 秒", "{s} 秒", "{s}s"),
    "t_bank": ("（備用 {s} 秒）", "（备用 {s} 秒）", "(bank {s}s)"),
    "t_advice": ("建議", "建议", "Suggestion"),
    "t_copies_left": ("剩 {n} 隻", "剩 {n} 只", "{n} left"),
    # -- practice hints (bots.advice, put into words by the table client)
    "h_win": ("可以食糊！", "可以胡牌！", "You can win!"),
    "h_ready_after": (
        "打完聽牌，聽 {n} 種牌",
        "打完听牌，听 {n} 种牌",
        "ready after it, on {n} tiles",
    ),
    "h_away": ("打完仲差 {n} 向聽", "打完还差 {n} 向听", "then {n} away from ready"),
    "h_goal": (
        "番路：{fans}（約 {n} 番）",
        "番路：{fans}（约 {n} 番）",
        "aiming at {fans} (about {n} fan)",
    ),
    "h_danger_safe": ("呢隻牌安全", "这张牌安全", "this tile is safe"),
    "h_danger_low": ("放銃風險低", "放铳风险低", "low risk of dealing in"),
    "h_danger_medium": ("放銃風險中等", "放铳风险中等", "some risk of dealing in"),
    "h_danger_high": ("放銃風險高", "放铳风险高", "high risk of dealing in"),
    "h_liable": ("打佢可能要包牌", "打它可能要包牌", "it could make you liable for a limit hand"),
    "h_ready_seats": ("{who} 似乎已經聽牌", "{who} 似乎已经听牌", "looks ready: {who}"),
    "h_given_up": (
        "為安全或番數慢 {n} 步",
        "为安全或番数慢 {n} 步",
        "{n} step(s) slower, for safety or value",
    ),
    "h_wait_fan": (
        "食 {a} 番／自摸 {b} 番",
        "胡 {a} 番／自摸 {b} 番",
        "{a} fan on a discard / {b} self-drawn",
    ),
    "h_waits": ("聽", "听", "Waits"),
    "h_useful": ("有效牌", "有效牌", "Useful tiles"),
    "t_rules_digest": (
        "台例 {name}（{digest}）",
        "台例 {name}（{digest}）",
        "Rules {name} ({digest})",
    ),
    "t_stake": ("注碼 {n} 玉", "注码 {n} 玉", "Stake {n} jade"),
    "t_fee": ("手續費 {n} 玉", "手续费 {n} 玉", "Fee {n} jade"),
    "t_practice": ("練習", "练习", "Practice"),
    "t_paused": ("已暫停", "已暂停", "Paused"),
    "t_fill_bots": ("空位由電腦補上", "空位由电脑补上", "Fill empty seats with bots"),
    "t_join": ("入座", "入座", "Sit down"),
    "t_invite": ("邀請連結", "邀请链接", "Invite link"),
    # -- leagues
    "nav_leagues": ("聯賽", "联赛", "Leagues"),
    "leagues_title": ("聯賽", "联赛", "Leagues"),
    "leagues_intro": (
        "報名參加聯賽：每輪同其他參賽者打一場，按牌桌積分排名，完結時按公佈的分配派發獎池。",
        "报名参加联赛：每轮同其他参赛者打一场，按牌桌积分排名，结束时按公布的分配派发奖池。",
        "Sign up for a league: each round you play one match against other entrants, the "
        "standings go by table points, and the prize pool is paid at the end by the published "
        "distribution.",
    ),
    "no_leagues": ("暫時未有聯賽。", "暂时没有联赛。", "No leagues yet."),
    "col_league": ("聯賽", "联赛", "League"),
    "col_status": ("狀態", "状态", "Status"),
    "col_players": ("人數", "人数", "Players"),
    "col_entry": ("報名費", "报名费", "Entry"),
    "col_pool": ("獎池", "奖池", "Prize pool"),
    "col_signup_closes": ("截止報名", "截止报名", "Sign-up closes"),
    "col_rank": ("名次", "名次", "Rank"),
    "col_name": ("玩家", "玩家", "Player"),
    "col_points": ("牌桌積分", "牌桌积分", "Table points"),
    "col_matches": ("場數", "场数", "Matches"),
    "col_best": ("最佳一場", "最佳一场", "Best match"),
    "col_byes": ("輪空", "轮空", "Byes"),
    "lg_status_open": ("報名中", "报名中", "Sign-up open"),
    "lg_status_running": ("進行中", "进行中", "Running"),
    "lg_status_finished": ("已完結", "已结束", "Finished"),
    "lg_status_rolled_back": ("已取消（滾回）", "已取消（滚回）", "Cancelled (rolled back)"),
    "lg_status_rolled_out": ("已取消（滾出）", "已取消（滚出）", "Cancelled (rolled out)"),
    "lg_free": ("免費聯賽", "免费联赛", "Free league"),
    "lg_entry": (
        "手續費 {fee} 玉 + 賭注 {stake} 玉",
        "手续费 {fee} 玉 + 赌注 {stake} 玉",
        "Entry fee {fee} + stake {stake} jade",
    ),
    "lg_signup": ("報名", "报名", "Sign-up"),
    "lg_terms": ("賽制", "赛制", "Terms"),
    "lg_house_rules": ("自訂台例", "自订台例", "House rules"),
    "lg_rules_v": (
        "{name}（摘要 {digest}）",
        "{name}（摘要 {digest}）",
        "{name} (digest {digest})",
    ),
    "lg_length": ("每場長度", "每场长度", "Match length"),
    "lg_rounds": ("輪數", "轮数", "Rounds"),
    "lg_rounds_n": (
        "共 {n} 輪，每輪最多 {m} 分鐘",
        "共 {n} 轮，每轮最多 {m} 分钟",
        "{n} round(s), at most {m} minutes each",
    ),
    "lg_schedule_note": (
        "上一輪所有牌檯完場後，下一輪隨即開始。每輪由入座起計有 {m} 分鐘：夠鐘時仍未完場的牌檯即時結束，"
        "以已打完的局計牌桌積分（正在打的一局不計）。牌檯如被單獨取消或中止，該場作廢重開，"
        "同一班人喺新牌檯再打（每場最多 {k} 張檯，之後該場作廢，各人 0 分）。",
        "上一轮所有牌台完场后，下一轮随即开始。每轮由入座起计有 {m} 分钟：够钟时仍未完场的牌台即时结束，"
        "以已打完的局计牌桌积分（正在打的一局不计）。牌台如被单独取消或中止，该场作废重开，"
        "同一班人在新牌台再打（每场最多 {k} 张台，之后该场作废，各人 0 分）。",
        "A round starts as soon as every table of the previous round has ended. Each round has "
        "{m} minutes from when it is seated: when the time is up, a table still playing ends "
        "at once and its table points are those of the hands it finished (the hand in play "
        "counts nothing). A table cancelled or aborted on its own is void and its match is "
        "played again by the same players at a fresh table (at most {k} tables a match; after "
        "that the match is void, 0 points each).",
    ),
    "lg_window": ("報名時間", "报名时间", "Sign-up"),
    "lg_window_v": ("{a} 至 {b}", "{a} 至 {b}", "{a} to {b}"),
    "lg_players_v": ("{a}–{b} 人", "{a}–{b} 人", "{a}–{b} players"),
    "lg_pool_fees": (
        "；聯賽完成時手續費的 {pct}% 撥入獎池（已計在內；取消則全數退還手續費）",
        "；联赛完成时手续费的 {pct}% 拨入奖池（已计在内；取消则全数退还手续费）",
        "; {pct}% of the entry fees join the pool when the league finishes (included; a "
        "cancelled league refunds every fee)",
    ),
    "lg_pool_v": (
        "{pool} 玉（每人賭注 {stake} 玉，另加保證 {g} 玉）",
        "{pool} 玉（每人赌注 {stake} 玉，另加保证 {g} 玉）",
        "{pool} jade (a stake of {stake} per entrant, plus {g} guaranteed)",
    ),
    "lg_prizes": ("獎金分配", "奖金分配", "Prizes"),
    "lg_place": ("第 {n} 名 {p}%", "第 {n} 名 {p}%", "place {n}: {p}%"),
    "lg_prize_rule": (
        "參賽者少過名額時，按比例放大前面名次；整數餘數由第一名起逐個派。手續費歸麻雀館。",
        "参赛者少于名额时，按比例放大前面名次；整数余数由第一名起逐个派。手续费归麻雀馆。",
        "With fewer entrants than places, the first places are scaled up in proportion; the "
        "jade left by rounding goes one each from first place down. The fees go to the parlor.",
    ),
    "lg_seating": ("座位", "座位", "Seating"),
    "lg_seating_rule": (
        "第一輪按聯賽種子隨機抽籤，之後按排名入座（第 1–4 名同檯，第 5–8 名同檯……）；"
        "每檯邊個坐東亦由種子抽出。",
        "第一轮按联赛种子随机抽签，之后按排名入座（第 1–4 名同台，第 5–8 名同台……）；"
        "每台谁坐东亦由种子抽出。",
        "Round 1 is drawn at random from the league's seed; later rounds go by the standings "
        "(ranks 1–4 at one table, 5–8 at the next, …); who sits East at each table is drawn "
        "from the seed too.",
    ),
    "lg_fill_bots": (
        "人數唔係 4 的倍數時，開 ⌈人數 ÷ 4⌉ 張檯，玩家盡量平均分配（人多的檯排前），"
        "其餘座位由電腦（{level}）補上；電腦的積分不計入任何人。",
        "人数不是 4 的倍数时，开 ⌈人数 ÷ 4⌉ 张台，玩家尽量平均分配（人多的台排前），"
        "其余座位由电脑（{level}）补上；电脑的积分不计入任何人。",
        "When the players are not a multiple of 4: ⌈players ÷ 4⌉ tables, the people spread as "
        "evenly as possible (fuller tables first), bots ({level}) in the other seats; a bot's "
        "points count for no one.",
    ),
    "lg_fill_byes": (
        "人數唔係 4 的倍數時，餘下的人該輪輪空，得 0 分：由該輪次序最低而輪空次數最少的玩家輪空，"
        "所以輪空會輪流。",
        "人数不是 4 的倍数时，余下的人该轮轮空，得 0 分：由该轮次序最低而轮空次数最少的玩家轮空，"
        "所以轮空会轮流。",
        "When the players are not a multiple of 4, the rest sit the round out with a bye worth "
        "0 points: the lowest in that round's order among those with the fewest byes, so byes "
        "rotate.",
    ),
    "lg_tiebreaks": ("同分", "同分", "Ties"),
    "lg_tiebreaks_v": (
        "先比牌桌積分總和，再比最佳一場，再比報名先後。",
        "先比牌桌积分总和，再比最佳一场，再比报名先后。",
        "Table points first, then the best single match, then the earlier sign-up.",
    ),
    "lg_cancel": ("取消", "取消", "Cancellation"),
    "lg_rollback_rule": (
        "滾回（開賽前取消）：所有已報名玩家的手續費和賭注全數退還。",
        "滚回（开赛前取消）：所有已报名玩家的手续费和赌注全数退还。",
        "Rolled back (cancelled before it starts): every registered player's fee and stake "
        "are refunded.",
    ),
    "lg_rollout_rule": (
        "滾出（開賽後取消）：退還手續費；獎池一半平均分給參賽者，一半按牌桌積分按比例分配"
        "（最大餘數法：每人先得整數部分，剩低嘅玉逐個派畀小數部分最大嘅人，同樣大就名次高先）。",
        "滚出（开赛后取消）：退还手续费；奖池一半平均分给参赛者，一半按牌桌积分按比例分配"
        "（最大余数法：每人先得整数部分，剩下的玉逐个派给小数部分最大的人，相同则名次高者先）。",
        "Rolled out (cancelled after it started): the fees are refunded; half the pool is "
        "shared equally among the entrants and half in proportion to their table points "
        "(largest-remainder method: each gets the whole part of its share, the jade left goes "
        "one each to the largest fractions, ties to the better rank).",
    ),
    "lg_rollout_notes": (
        "種子冇講負分點計：呢度負分當 0 分（唔會因此倒欠）。種子話滾出嘅獎池由人手計算，退款要啲時間；"
        "呢度取消一刻即時計好同派發。",
        "种子没有说负分怎么计：这里负分当 0 分（不会因此倒欠）。种子说滚出的奖池由人手计算，退款需要一些时间；"
        "这里取消的一刻即时计算并派发。",
        "The seed does not say how a negative score counts: here it counts as 0 (it never becomes "
        "a debt). The seed says a rolled-out pool is worked out by hand and takes time; here it is "
        "worked out and paid the moment the league is cancelled.",
    ),
    "lg_free_rule": (
        "免費聯賽被取消，獎池不會派給參加者。",
        "免费联赛被取消，奖池不会派给参加者。",
        "A free league that is cancelled pays no pool.",
    ),
    "lg_seed": (
        "麻雀館政策《取消》（種子 002）",
        "麻雀馆政策《取消》（种子 002）",
        "The parlor's policy on cancellation (seed 002)",
    ),
    "lg_entrants": ("參賽者", "参赛者", "Entrants"),
    "lg_none": ("未有人報名。", "还没有人报名。", "No one has signed up yet."),
    "lg_standings": ("排名", "排名", "Standings"),
    "lg_round_n": ("第 {n} 輪", "第 {n} 轮", "Round {n}"),
    "lg_table_n": ("第 {n} 檯", "第 {n} 台", "Table {n}"),
    "lg_playing": ("進行中", "进行中", "playing"),
    "lg_stake_note": (
        "聯賽嘅賭注入獎池，完賽按排名派；唔係牌桌價值（網上檯嘅賭注）：聯賽檯冇賭注，只計牌桌積分。",
        "联赛的赌注进入奖池，完赛按排名派发；不是牌桌价值（网上台的赌注）：联赛台没有赌注，只计牌桌积分。",
        "A league's stake goes into the pool the final standings share; it is not a table value (an online table's stake): league tables carry no stake, only table points.",
    ),
    "lg_unplayed": (
        "未打完：聯賽已取消，唔計分",
        "未打完：联赛已取消，不计分",
        "not finished: the league was cancelled, no points",
    ),
    "lg_pool_split": (
        "滾出時分配咗 {pool} 玉：平分 {equal} 玉，按牌桌積分 {points} 玉（手續費全數退還，唔入獎池）",
        "滚出时分配了 {pool} 玉：平分 {equal} 玉，按牌桌积分 {points} 玉（手续费全数退还，不入奖池）",
        "{pool} jade split when it was rolled out: {equal} equally, {points} by table points (every "
        "fee refunded, none joined the pool)",
    ),
    "lg_pool_free_back": (
        "免費聯賽取消：獎池（保證 {pool} 玉）唔派，退返麻雀館",
        "免费联赛取消：奖池（保证 {pool} 玉）不派，退回麻雀馆",
        "A cancelled free league: its pool (the {pool} jade guaranteed) is not paid and goes back "
        "to the parlor",
    ),
    "lg_pool_refunded": (
        "滾回：賭注共 {pool} 玉已全數退還",
        "滚回：赌注共 {pool} 玉已全数退还",
        "Rolled back: the stakes, {pool} jade in all, were refunded",
    ),
    "lg_rolled_out_note": (
        "聯賽喺第 {n} 輪取消（滾出，{at}）；打完嘅輪數：{done}。未打完嘅檯唔計分；"
        "手續費已退還，獎池已即時分配（見下面派發）。",
        "联赛在第 {n} 轮取消（滚出，{at}）；打完的轮数：{done}。未打完的台不计分；"
        "手续费已退还，奖池已即时分配（见下面派发）。",
        "The league was cancelled in round {n} (rolled out, {at}); rounds finished: {done}. "
        "Tables not finished count no points; the fees were refunded and the pool split at once "
        "(see the payouts below).",
    ),
    "lg_rolled_back_note": (
        "聯賽開賽前取消（滾回）：手續費同賭注已全數退還。",
        "联赛开赛前取消（滚回）：手续费和赌注已全数退还。",
        "The league was cancelled before it started (rolled back): every fee and stake was "
        "refunded.",
    ),
    "lg_go_table": ("前往牌檯", "前往牌台", "Go to the table"),
    "lg_watch_table": ("旁觀", "旁观", "Watch"),
    "lg_round_ends": (
        "本輪 {at} 夠鐘",
        "本轮 {at} 够钟",
        "This round's time is up at {at}",
    ),
    "lg_match_record": ("對局記錄", "对局记录", "The match"),
    "lg_d_replayed": ("重開", "重开", "Played again"),
    "lg_d_void": ("作廢", "作废", "Void"),
    "lg_d_time_up": ("夠鐘", "够钟", "Time up"),
    "lg_bot": ("電腦", "电脑", "bot"),
    "lg_byes": ("輪空：{names}", "轮空：{names}", "Byes: {names}"),
    "lg_join": ("報名", "报名", "Sign up"),
    "lg_leave": ("退出", "退出", "Withdraw"),
    "lg_you_in": ("你已報名。", "你已报名。", "You are signed up."),
    "lg_login_to_join": ("登入後可以報名。", "登录后可以报名。", "Log in to sign up."),
    "lg_guest_no": (
        "訪客不能報名聯賽，請先註冊。",
        "访客不能报名联赛，请先注册。",
        "Guests cannot sign up for a league; register first.",
    ),
    "lg_closed": ("報名已截止。", "报名已截止。", "Sign-up is closed."),
    "lg_not_yet": ("報名未開始。", "报名还没开始。", "Sign-up has not opened yet."),
    "lg_payouts": ("派發", "派发", "Payouts"),
    "lg_pay_prize": ("獎金", "奖金", "Prize"),
    "lg_pay_fee_refund": ("退還手續費", "退还手续费", "Fee refunded"),
    "lg_pay_stake_refund": ("退還賭注", "退还赌注", "Stake refunded"),
    "lg_pay_split_equal": ("獎池平分", "奖池平分", "Pool: equal share"),
    "lg_pay_split_points": ("獎池按積分", "奖池按积分", "Pool: by table points"),
    "lg_log": ("記錄", "记录", "Log"),
    "lg_log_note": (
        "每個決定同理由（麻雀館的決定視為最終）",
        "每个决定和理由（麻雀馆的决定视为最终）",
        "Every decision with its reason (the parlor's decisions are final)",
    ),
    "lg_d_created": ("開設", "开设", "Created"),
    "lg_d_joined": ("報名", "报名", "Signed up"),
    "lg_d_left": ("退出", "退出", "Withdrew"),
    "lg_d_started": ("開賽", "开赛", "Started"),
    "lg_d_seated": ("入座", "入座", "Seated"),
    "lg_d_result": ("結果", "结果", "Result"),
    "lg_d_table": ("開檯", "开台", "Table opened"),
    "lg_d_finished": ("完結", "结束", "Finished"),
    "lg_d_rolled_back": ("滾回", "滚回", "Rolled back"),
    "lg_d_rolled_out": ("滾出", "滚出", "Rolled out"),
    "lg_err_closed": (
        "而家唔係報名時間。",
        "现在不是报名时间。",
        "Sign-up is not open now.",
    ),
    "lg_err_started": (
        "聯賽已經開始，不能再報名或退出。",
        "联赛已经开始，不能再报名或退出。",
        "The league has started: no more sign-ups or withdrawals.",
    ),
    "lg_err_over": ("聯賽已經結束。", "联赛已经结束。", "The league is over."),
    "lg_err_full": ("名額已滿。", "名额已满。", "The league is full."),
    "lg_err_balance": (
        "你的玉不夠付手續費和賭注。",
        "你的玉不够付手续费和赌注。",
        "You do not have enough jade for the fee and stake.",
    ),
    "lg_err_not_entered": ("你未報名。", "你还没报名。", "You are not signed up."),
    "lg_err_guest": (
        "訪客不能報名聯賽，請先註冊。",
        "访客不能报名联赛，请先注册。",
        "Guests cannot sign up for a league; register first.",
    ),
    "lg_err_csrf": (
        "表格已過期，請重新載入頁面。",
        "表格已过期，请重新载入页面。",
        "The form expired; reload the page.",
    ),
    "lg_err_unknown": ("做唔到，請再試。", "做不到，请再试。", "That did not work; try again."),
    "lg_done_joined": ("報名成功。", "报名成功。", "You are signed up."),
    "lg_done_left": (
        "已退出，手續費和賭注已退還。",
        "已退出，手续费和赌注已退还。",
        "You withdrew; your fee and stake were refunded.",
    ),
    # -- history, statistics, ratings (docs/history.md)
    "nav_leaderboard": ("排行榜", "排行榜", "Leaderboard"),
    "nav_me": ("我的戰績", "我的战绩", "My record"),
    "pl_title": ("{name} 的戰績", "{name} 的战绩", "{name}'s record"),
    "pl_guest": ("訪客", "访客", "guest"),
    "pl_ratings": ("等級分", "等级分", "Rating"),
    "pl_rating_v": (
        "{family}：{r}（{n} 場）",
        "{family}：{r}（{n} 场）",
        "{family}: {r} (matches: {n})",
    ),
    "pl_no_rating": ("未有計等級分的對局。", "还没有计等级分的对局。", "No rated matches yet."),
    "pl_kind": ("牌檯", "牌台", "Tables"),
    "pl_kind_all": ("全部", "全部", "All"),
    "pl_kind_online": ("對局", "对局", "Online"),
    "pl_kind_practice": ("練習", "练习", "Practice"),
    "pl_all_rules": ("全部台例", "全部台例", "All rules"),
    "pl_show": ("顯示", "显示", "Show"),
    "pl_stats": ("統計", "统计", "Statistics"),
    "st_hands": ("局數", "局数", "Hands"),
    "st_win_rate": ("食糊率", "胡牌率", "Win rate"),
    "st_self_draw": ("自摸率", "自摸率", "Self-draw share"),
    "st_deal_in": ("放銃率", "放铳率", "Deal-in rate"),
    "st_avg_fan": ("平均番數", "平均番数", "Average winning fan"),
    "st_draws": ("流局", "流局", "Drawn hands"),
    "st_false_wins": ("詐糊", "诈胡", "False wins"),
    "st_liability": ("包牌支出", "包牌支出", "Liability paid"),
    "st_liability_v": ("{n}（{h} 局）", "{n}（{h} 局）", "{n} ({h} hands)"),
    "st_points": ("每局得失", "每局得失", "Points per hand"),
    "st_matches": ("場數", "场数", "Matches"),
    "st_avg_place": ("平均名次", "平均名次", "Average place"),
    "st_places": ("名次 1／2／3／4", "名次 1／2／3／4", "Places 1/2/3/4"),
    "st_jade": ("對局贏輸的玉", "对局输赢的玉", "Jade won at tables"),
    "st_ratio_v": ("{p}（{a}／{b}）", "{p}（{a}／{b}）", "{p} ({a}/{b})"),
    "st_defs": ("點樣計", "怎样计算", "How these are counted"),
    "st_def_hands": (
        "局數：你入座打過的每一局都計，流局亦計；勝率同放銃率都以局數為分母。",
        "局数：你入座打过的每一局都计，流局亦计；胜率和放铳率都以局数为分母。",
        "Hands: every hand you were dealt into counts, drawn hands too; the win and deal-in "
        "rates are out of these.",
    ),
    "st_def_win": (
        "食糊率＝食糊局數÷局數；一炮雙響的兩家各計一次食糊。自摸率＝自摸÷食糊（搶槓不算自摸）。",
        "胡牌率＝胡牌局数÷局数；一炮双响的两家各计一次胡牌。自摸率＝自摸÷胡牌（抢杠不算自摸）。",
        "Win rate = hands won ÷ hands; both winners of a double win count a win. Self-draw "
        "share = self-drawn wins ÷ wins (robbing a kong is not a self-draw).",
    ),
    "st_def_deal_in": (
        "放銃：你打出的牌（或你開的槓被搶）令人食糊；一炮雙響只計一局。包牌而冇放銃不算放銃。",
        "放铳：你打出的牌（或你开的杠被抢）令人胡牌；一炮双响只计一局。包牌而没有放铳不算放铳。",
        "A deal-in is a hand in which your discard (or the kong robbed from you) won; a double "
        "win off you is one deal-in. Being liable without discarding is not a deal-in.",
    ),
    "st_def_fan": (
        "平均番數＝食糊的總番數÷食糊次數，爆棚照計其番數。包牌支出＝你作為包牌者付出的數。",
        "平均番数＝胡牌的总番数÷胡牌次数，爆棚照计其番数。包牌支出＝你作为包牌者付出的数。",
        "Average fan = total fan of your wins ÷ wins, a limit hand at its limit. Liability paid "
        "= what you paid as the liable player.",
    ),
    "st_def_jade": (
        "對局贏輸的玉：每場對局完場時的贏輸，已扣手續費；練習不計玉。名次同分並列。",
        "对局输赢的玉：每场对局完场时的输赢，已扣手续费；练习不计玉。名次同分并列。",
        "Jade won at tables: each finished online match's result less its fee; practice moves no "
        "jade. Equal totals share a place.",
    ),
    "pl_fans": ("番種次數", "番种次数", "Fan patterns"),
    "col_pattern": ("番種", "番种", "Pattern"),
    "col_times": ("次數", "次数", "Times"),
    "col_of_wins": ("佔食糊", "占胡牌", "Of wins"),
    "pl_no_wins": ("未食過糊。", "还没胡过牌。", "No wins yet."),
    "pl_jade_chart": ("玉的走勢", "玉的走势", "Jade over time"),
    "pl_chart_caption": (
        "由 {a} 至 {b}，{n} 次變動，現有 {x} 玉。",
        "由 {a} 至 {b}，{n} 次变动，现有 {x} 玉。",
        "From {a} to {b}: {n} changes; {x} jade now.",
    ),
    "pl_no_jade": ("未有玉的記錄。", "还没有玉的记录。", "No jade recorded yet."),
    "pl_recent_matches": ("最近對局", "最近对局", "Recent matches"),
    "pl_recent_hands": ("最近牌局", "最近牌局", "Recent hands"),
    "pl_all_matches": ("全部對局（{n}）", "全部对局（{n}）", "All matches ({n})"),
    "pl_all_hands": ("全部牌局（{n}）", "全部牌局（{n}）", "All hands ({n})"),
    "pl_no_hands": ("未打過牌。", "还没打过牌。", "No hands played yet."),
    "pl_no_matches": ("未打完過一場。", "还没打完过一场。", "No finished matches yet."),
    "pl_hands_title": ("{name} 的牌局", "{name} 的牌局", "{name}'s hands"),
    "pl_matches_title": ("{name} 的對局", "{name} 的对局", "{name}'s matches"),
    "pl_not_found": ("搵唔到呢位玩家。", "找不到这位玩家。", "No such player."),
    "page_n": ("第 {n}／{m} 頁", "第 {n}／{m} 页", "Page {n} of {m}"),
    "page_prev": ("上一頁", "上一页", "Previous"),
    "page_next": ("下一頁", "下一页", "Next"),
    "col_when": ("時間", "时间", "When"),
    "col_hand": ("局", "局", "Hand"),
    "col_seat": ("座位", "座位", "Seat"),
    "col_result": ("結果", "结果", "Result"),
    "col_delta": ("得失", "得失", "Points"),
    "col_total": ("總分", "总分", "Total"),
    "col_jade": ("玉", "玉", "Jade"),
    "col_rating": ("等級分", "等级分", "Rating"),
    "col_hands": ("局數", "局数", "Hands"),
    "r_self": ("自摸 {fan} 番", "自摸 {fan} 番", "self-drawn, {fan} fan"),
    "r_won_off": (
        "食 {name} 出銃，{fan} 番",
        "胡 {name} 的出铳，{fan} 番",
        "won on {name}'s discard, {fan} fan",
    ),
    "r_dealt_in": ("放銃給 {names}", "放铳给 {names}", "dealt in to {names}"),
    "r_liable": ("包牌付 {n}", "包牌付 {n}", "liable: paid {n}"),
    "r_drawn_hand": ("流局", "流局", "drawn"),
    "r_false_win": ("詐糊", "诈胡", "false win"),
    "r_none": ("—", "—", "—"),
    "hand_label": ("第 {n} 局・{w}圈", "第 {n} 局・{w}圈", "hand {n}, {w} round"),
    "m_title": ("對局 {id}", "对局 {id}", "Match {id}"),
    "m_not_over": ("呢場未打完。", "这场还没打完。", "This match has not ended."),
    "m_hands": ("逐局", "逐局", "Hand by hand"),
    "m_ledger": ("玉的記錄", "玉的记录", "Jade ledger"),
    "m_ledger_none": ("呢場冇玉的進出。", "这场没有玉的进出。", "No jade moved at this table."),
    "m_payments": ("付款", "付款", "Payments"),
    "m_pay_v": ("{a} → {b} {n}：{why}", "{a} → {b} {n}：{why}", "{a} → {b} {n}: {why}"),
    "m_win_self": ("{name} 自摸", "{name} 自摸", "{name} self-drew"),
    "m_win_off": (
        "{name} 食 {src} 出銃",
        "{name} 胡 {src} 的出铳",
        "{name} won on {src}'s discard",
    ),
    "m_liable_v": ("{name} 包牌", "{name} 包牌", "{name} liable"),
    "m_fan_total": ("共 {n} 番", "共 {n} 番", "{n} fan in all"),
    "m_limit": ("爆棚", "爆棚", "limit"),
    "m_false": ("{name} 詐糊", "{name} 诈胡", "{name}: false win"),
    "m_rating_v": ("{a} → {b}", "{a} → {b}", "{a} → {b}"),
    "m_rules_v": (
        "{family}（摘要 {digest}）",
        "{family}（摘要 {digest}）",
        "{family} (digest {digest})",
    ),
    "acct_escrow": ("{name} 的押金", "{name} 的押金", "{name}'s escrow"),
    "acct_fees": ("手續費", "手续费", "fees"),
    "acct_bots": ("電腦（莊家）", "电脑（庄家）", "bots (the house)"),
    "txk_buy_in": ("入場", "入场", "buy-in"),
    "txk_settle": ("第 {n} 局結算", "第 {n} 局结算", "hand {n} settled"),
    "txk_release": ("散場", "散场", "release"),
    "txk_refund": ("退款", "退款", "refund"),
    "lb_title": ("排行榜", "排行榜", "Leaderboard"),
    "lb_intro": (
        "等級分用 OpenSkill 的 Plackett–Luce 模型，每場對局完場後按名次更新；顯示的分數是 μ − 3σ"
        "（μ 係估計實力，σ 係幾唔肯定：打得少，σ 大，分數就保守啲），"
        "新玩家由 0 開始，打得多、贏得多就升；同分嘅並列同一名次（例如 1=）。玉是該系列台例對局中贏輸的玉（已扣手續費）。"
        "每個電腦級別亦有等級分，方便比較。",
        "等级分用 OpenSkill 的 Plackett–Luce 模型，每场对局完场后按名次更新；显示的分数是 μ − 3σ"
        "（μ 是估计实力，σ 是有多不确定：打得少，σ 大，分数就保守一些），"
        "新玩家由 0 开始，打得多、赢得多就升；同分的并列同一名次（例如 1=）。玉是该系列台例对局中输赢的玉（已扣手续费）。"
        "每个电脑级别亦有等级分，方便比较。",
        "The rating is OpenSkill's Plackett–Luce model, updated by the places after every online "
        "match; shown is μ − 3σ (μ the estimated skill, σ how unsure it is: few matches, a large "
        "σ and a cautious rating), which starts at 0 and rises as you play and win; equal "
        "ratings share a rank (1=). Jade is what "
        "was won less lost (fees included) at that family's online tables. Each bot level is "
        "rated too, for comparison.",
    ),
    "lb_family": ("台例系列", "台例系列", "Ruleset family"),
    "lb_tied": ("同分並列", "同分并列", "tied"),
    "lb_by_rating": ("按等級分", "按等级分", "By rating"),
    "lb_by_jade": ("按玉", "按玉", "By jade"),
    "lb_empty": ("暫時未有記錄。", "暂时没有记录。", "Nothing recorded yet."),
    "lb_bot": ("電腦（{level}）", "电脑（{level}）", "bot ({level})"),
    # -- offline
    "offline_title": ("未能連線", "未能连线", "Offline"),
    "offline_text": (
        "而家連唔到麻雀館。請檢查網絡，然後再試。",
        "现在连不上麻雀馆。请检查网络，然后再试。",
        "The parlor cannot be reached right now. Check your connection and try again.",
    ),
    "retry": ("再試", "再试", "Try again"),
    "not_found": ("搵唔到呢頁。", "找不到这页。", "Page not found."),
}


T2S = str.maketrans(
    "銃槓搶開當獨數詐賠結賭為餘產糊莊門風東圈連對錯種後將邊個隻額費際應價筆雞響",
    "铳杠抢开当独数诈赔结赌为余产胡庄门风东圈连对错种后将边个只额费际应价笔鸡响",
)
"""繁→简 for the engine's payment reasons (``PaymentLine.reason_zh`` is 繁體; the same map as
the table client's)."""


LENGTH_KEYS = {
    "one-hand": "len_one_hand",
    "east-round": "len_quarter",
    "four-rounds": "len_four_rounds",
    "8-hands": "len_8",
    "16-hands": "len_16",
    "bankruptcy": "len_bankrupt",
    "online": "len_4",
}
"""The word key of each match length (a length's name on the league, player and match pages)."""


def reason(lang: str, zh: str, en: str) -> str:
    """A payment reason in ``lang``: the 繁體 text, its 简体 form, or the English.

    >>> reason("zh-Hans", "包牌：獨付全數（自摸）", "liable")
    '包牌：独付全数（自摸）'
    """
    if lang == "en":
        return en
    return zh.translate(T2S) if lang == "zh-Hans" else zh


def tr(lang: str, key: str, **fmt: object) -> str:
    """The page text ``key`` in ``lang`` (one of :data:`LANGS`), formatted with ``fmt``.

    :raises KeyError: for an unknown key.

    >>> tr("en", "jade_n", n=5)
    '5 jade'
    """
    text = WORDS[key][_index(lang)]
    return text.format(**fmt) if fmt else text


SWITCH_DOCS: dict[str, tuple[str, str]] = {
    # switch: (zh-Hant, zh-Hans): the rules page's description of each house-rule switch (台例開關),
    # worded from docs/rules.md and the seeds it cites (English: ``rules.ruleset.field_doc``).
    "seven_pairs": (
        "七對子可以食糊（W2 自訂牌型；P 指七對子並非港式麻雀的胡牌：關）。",
        "七对子可以胡牌（W2 自订牌型；P 指七对子并非港式麻雀的胡牌：关）。",
    ),
    "thirteen_orphans_head_bump_exempt": (
        "十三幺不會被截糊（W2 正統十三幺；P 的截糊沒有例外：關）。",
        "十三幺不会被截胡（W2 正统十三幺；P 的截胡没有例外：关）。",
    ),
    "multiple_winners": (
        "一炮多響（W1/W2）；關：截糊，由出銃者之後最先輪到的一家食糊（P）。",
        "一炮多响（W1/W2）；关：截胡，由出铳者之后最先轮到的一家胡牌（P）。",
    ),
    "dead_wall": (
        "牌尾留下不摸的牌數（P：0，不留牌尾；P 提到的家規：14；W1/W2：7 或 8 墩，即 14 或 16 隻）。",
        "牌尾留下不摸的牌数（P：0，不留牌尾；P 提到的家规：14；W1/W2：7 或 8 墩，即 14 或 16 张）。",
    ),
    "pass_rule": (
        "食糊的過水規則（P：沒有過水）。",
        "胡牌的过水规则（P：没有过水）。",
    ),
    "pung_pass_rule": (
        "W2 過水第一點：放棄碰一隻牌之後，到自己下次摸牌之前不可再碰同一隻牌。",
        "W2 过水第一点：放弃碰一张牌之后，到自己下次摸牌之前不可再碰同一张牌。",
    ),
    "no_swap_discard": (
        "W2 過水第四點「食替」：上牌或碰牌之後，不可打出同一隻牌。",
        "W2 过水第四点「食替」：上牌或碰牌之后，不可打出同一张牌。",
    ),
    "rob_concealed_kong_thirteen": (
        "聽十三幺時可以搶暗槓（P、W2；W1 註 8：連這樣也不可以）。",
        "听十三幺时可以抢暗杠（P、W2；W1 注 8：连这样也不可以）。",
    ),
    "bonus_tiles": (
        "打花：用四隻花和四隻季，共八隻花牌（P）。",
        "打花：用四张花和四张季，共八张花牌（P）。",
    ),
    "bonus_win_seven": (
        "花糊：集齊七隻花牌即可食糊（W2、C、W1；P 沒有）。",
        "花胡：集齐七张花牌即可胡牌（W2、C、W1；P 没有）。",
    ),
    "false_win_below_minimum": (
        "番數不足起糊而食糊算詐糊（C；W1/W2：通常見於麻雀館）；"
        "關：不算詐糊，但該玩家該局不可再食糊（W2 詐糊定義）。",
        "番数不足起胡而胡牌算诈胡（C；W1/W2：通常见于麻雀馆）；"
        "关：不算诈胡，但该玩家该局不可再胡牌（W2 诈胡定义）。",
    ),
    "match_lengths": (
        "可以選擇的對局長度（P 所列）。",
        "可以选择的对局长度（P 所列）。",
    ),
    "last_tile": (
        "最後一隻牌食糊計不計番（W2/P/ML：自摸或食出銃都計；W1 註 10：只計自摸）。",
        "最后一张牌胡牌计不计番（W2/P/ML：自摸或胡出铳都计；W1 注 10：只计自摸）。",
    ),
    "heavenly_after_concealed_kong": (
        "食糊者自己開暗槓之後仍計天糊／人糊（W2、C：不計，只計槓上開花）。",
        "胡牌者自己开暗杠之后仍计天胡／人胡（W2、C：不计，只计杠上开花）。",
    ),
    "earthly_after_dealer_kong": (
        "莊家開槓之後仍計地糊（C：不計）。",
        "庄家开杠之后仍计地胡（C：不计）。",
    ),
    "bonus_win_decline": (
        "玩家可以不食花糊，花糊的番數加到之後的正常食糊（W2 花糊牌規）。",
        "玩家可以不胡花胡，花胡的番数加到之后的正常胡牌（W2 花胡牌规）。",
    ),
    "bonus_win_kong_replacement": (
        "槓後補牌補到第七隻花而成花糊，亦計槓上開花：自摸 4 番（W2 花糊牌規；C/W1 列為自訂）。",
        "杠后补牌补到第七张花而成花胡，亦计杠上开花：自摸 4 番（W2 花胡牌规；C/W1 列为自订）。",
    ),
    "bonus_win_at_deal": (
        "開牌已有七隻花牌（W2：莊家計天糊，閒家計地糊；W1/C：要等摸牌，閒家不計地糊）。",
        "开牌已有七张花牌（W2：庄家计天胡，闲家计地胡；W1/C：要等摸牌，闲家不计地胡）。",
    ),
    "all_chows_honour_pair": (
        "平糊的眼可以是番子（C 註 3；W1 註 5 及 ML：眼只可以是序數牌）。",
        "平胡的眼可以是番子（C 注 3；W1 注 5 及 ML：眼只可以是序数牌）。",
    ),
    "all_chows_any_wait": (
        "平糊不限聽牌方式（C、W2）；關：不可以坎張、邊張或單吊（W1 註 5）。",
        "平胡不限听牌方式（C、W2）；关：不可以坎张、边张或单吊（W1 注 5）。",
    ),
    "concealed_kong_keeps_concealed": (
        "開暗槓之後仍計門前清（P 所講的部分家規；W2 及 P 的標準做法：不計）。",
        "开暗杠之后仍计门前清（P 所讲的部分家规；W2 及 P 的标准做法：不计）。",
    ),
    "concealed_hand_with_bonus_tiles": (
        "打花牌時仍計門前清（W2、P；C：有打花牌就不計門前清）。",
        "打花牌时仍计门前清（W2、P；C：有打花牌就不计门前清）。",
    ),
    "four_concealed_pungs_kongs": (
        "坎坎糊可以包括暗槓（P：暗槓計坎坎糊時當暗刻；C 註 24、W1、W2：不可以）。",
        "坎坎胡可以包括暗杠（P：暗杠计坎坎胡时当暗刻；C 注 24、W1、W2：不可以）。",
    ),
    "four_concealed_pungs_single_wait_discard": (
        "單吊食出銃成眼，仍計坎坎糊（W1 註 22）。",
        "单吊胡出铳成眼，仍计坎坎胡（W1 注 22）。",
    ),
    "four_concealed_pungs_any_win": (
        "坎坎糊不論自摸或食出銃都計（照 W2 字面）；關：只計自摸（C 註 25、ML、W1）。",
        "坎坎胡不论自摸或胡出铳都计（照 W2 字面）；关：只计自摸（C 注 25、ML、W1）。",
    ),
    "double_kong_from_replacement": (
        "槓上槓要第二個槓來自第一個槓的補牌（C、W1 註 17）。",
        "杠上杠要第二个杠来自第一个杠的补牌（C、W1 注 17）。",
    ),
    "nine_gates_discard_nine_sided_only": (
        "九蓮寶燈食出銃時一定要九面聽（C：食出銃必定要叫九飛）。",
        "九莲宝灯胡出铳时一定要九面听（C：胡出铳必定要叫九飞）。",
    ),
    "bonus_win_hand": (
        "花糊／八仙過海而手牌同時成糊：apart 分開，只計花糊（W2、C）；"
        "adds 於手牌以外再加花糊的番數，食出銃亦然（W2 花糊牌規）；"
        "limit_beats 手牌是爆棚牌型就以手牌計。",
        "花胡／八仙过海而手牌同时成胡：apart 分开，只计花胡（W2、C）；"
        "adds 于手牌以外再加花胡的番数，胡出铳亦然（W2 花胡牌规）；"
        "limit_beats 手牌是爆棚牌型就以手牌计。",
    ),
    "bonus_set_adds_seat_bonus": (
        "一台花另加該台的正花（2＋1，見於實際牌桌）；"
        "關：一台花已包括該台的正花（P；W1/W2/C：不再計同系列的正花）。",
        "一台花另加该台的正花（2＋1，见于实际牌桌）；"
        "关：一台花已包括该台的正花（P；W1/W2/C：不再计同系列的正花）。",
    ),
    "nine_gates_with_melds": (
        "九蓮寶燈可以有上牌或碰牌（例如 22345678999p 加碰出的 111p，見於實際牌桌）；"
        "關：一定要門清（W1/W2/C）。",
        "九莲宝灯可以有上牌或碰牌（例如 22345678999p 加碰出的 111p，见于实际牌桌）；"
        "关：一定要门清（W1/W2/C）。",
    ),
    "mixed_terminals_all_honours": (
        "全番子的手牌亦計花幺九（照 W1/W2「只有幺九和番子」的字面；ML 花么）；"
        "關：幺九和番子都要有。",
        "全番子的手牌亦计花幺九（照 W1/W2「只有幺九和番子」的字面；ML 花么）；"
        "关：幺九和番子都要有。",
    ),
}


def switch_doc(lang: str, name: str) -> str | None:
    """The description of house-rule switch ``name`` in 繁體 or 简体 (None in English: the
    ruleset's own ``field_doc`` is English; None also for a switch not described here)."""
    if lang not in ("zh-Hant", "zh-Hans"):
        return None
    found = SWITCH_DOCS.get(name)
    return None if found is None else found[0 if lang == "zh-Hant" else 1]


def _index(lang: str) -> int:
    try:
        return LANGS.index(lang)
    except ValueError:
        return 0


def catalogue(lang: str, keys: tuple[str, ...] | None = None) -> dict[str, str]:
    """``{key: text}`` in ``lang`` for ``keys`` (all when None): what the browser modules get."""
    i = _index(lang)
    return {k: v[i] for k, v in WORDS.items() if keys is None or k in keys}


def negotiate(cookie: str | None, query: str | None, accept_language: str | None) -> str:
    """The page language: ``?lang=`` first, then the cookie, then ``Accept-Language``, else 繁體.

    >>> negotiate(None, None, "zh-CN,zh;q=0.9,en;q=0.5")
    'zh-Hans'
    >>> negotiate("en", None, "zh-HK")
    'en'
    """
    for value in (query, cookie):
        if value in LANGS:
            return str(value)
    for part in (accept_language or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if not tag:
            continue
        if tag.startswith("zh"):
            simplified = any(s in tag for s in ("hans", "-cn", "-sg", "-my"))
            return "zh-Hans" if simplified else "zh-Hant"
        if tag.startswith("en"):
            return "en"
    return DEFAULT_LANG


def lang_names() -> Mapping[str, str]:
    """Each language's own name, for the switcher (繁體 / 简体 / English)."""
    return LANG_NAMES
