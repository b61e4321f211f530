"""The parlor's screen words in 繁體, 简体 and English (介面文字)."""

from __future__ import annotations

import errno

__all__ = ["os_error_text", "relation", "tr"]

_WORDS: dict[str, tuple[str, str, str]] = {
    # key: (zh-Hant, zh-Hans, en)
    "you": ("你", "你", "You"),
    "dealer": ("莊", "庄", "dealer"),
    "round": ("{w}圈", "{w}圈", "{w} round"),
    "hand_no": ("第{n}局", "第{n}局", "hand {n}"),
    "repeat": ("連{n}", "连{n}", "+{n}"),
    "wall": ("牌牆 {n}", "牌墙 {n}", "wall {n}"),
    "bonus": ("花", "花", "bonus"),
    "tiles": ("{n}張", "{n}张", "{n} tiles"),
    "discard": ("打", "打", "Discard"),
    "win": ("糊", "胡", "Win"),
    "self_draw": ("自摸", "自摸", "Self-draw"),
    "pung": ("碰", "碰", "Pung"),
    "kong": ("槓", "杠", "Kong"),
    "chow": ("上", "上", "Chow"),
    "pass": ("過", "过", "Pass"),
    "hint": ("提示", "提示", "Hint"),
    "your_turn": (
        "輪到你：←/→ 揀牌，Enter 打出",
        "轮到你：←/→ 选牌，Enter 打出",
        "Your turn: ←/→ select, Enter discard",
    ),
    "claim_on": (
        "{who}打出 {tile}：要嗎？",
        "{who}打出 {tile}：要吗？",
        "{who} discarded {tile}: claim it?",
    ),
    "rob_on": (
        "{who}加槓 {tile}：搶槓？",
        "{who}加杠 {tile}：抢杠？",
        "{who} adds a kong of {tile}: rob it?",
    ),
    "waiting": ("等待其他玩家…", "等待其他玩家…", "Other players are thinking…"),
    "choose_chow": ("揀邊個上：", "选哪个上：", "Which chow:"),
    "illegal": ("不可以：{what}", "不可以：{what}", "Not allowed: {what}"),
    "saved": ("已儲存到 {path}", "已保存到 {path}", "Saved to {path}"),
    "save_failed": (
        "儲存失敗：{path}（{why}）",
        "保存失败：{path}（{why}）",
        "Save failed: {path} ({why})",
    ),
    "refuse_unreadable": (
        "無法續局：讀不到 {path}（{why}）",
        "无法续局：读不到 {path}（{why}）",
        "Cannot resume: cannot read {path} ({why})",
    ),
    "refuse_damaged": (
        "無法續局：{path} 不是可以用的 hkmj 存檔（格式不對或者已損壞）",
        "无法续局：{path} 不是可以用的 hkmj 存档（格式不对或者已损坏）",
        "Cannot resume: {path} is not a usable hkmj save (wrong format or damaged)",
    ),
    "refuse_old_version": (
        "無法續局：{path} 是舊版本的存檔，這個版本不能續局",
        "无法续局：{path} 是旧版本的存档，这个版本不能续局",
        "Cannot resume: {path} is a save of an older version",
    ),
    "refuse_changed": (
        "無法續局：{path} 在儲存之後被改過（或者是另一個安裝的存檔）",
        "无法续局：{path} 在保存之后被改过（或者是另一个安装的存档）",
        "Cannot resume: {path} was changed after it was saved (or saved on another install)",
    ),
    "refuse_changed_line": (
        "無法續局：{path} 第 {line} 行在儲存之後被改過",
        "无法续局：{path} 第 {line} 行在保存之后被改过",
        "Cannot resume: {path} line {line} was changed after it was saved",
    ),
    "refuse_older": (
        "無法續局：{path} 不是這一局最後一次的存檔（舊的存檔不能續局）",
        "无法续局：{path} 不是这一局最后一次的存档（旧的存档不能续局）",
        "Cannot resume: {path} is an older copy, not this match's last save",
    ),
    "refuse_wrong_key": (
        "無法續局：{path} 是另一局的鎖匙檔",
        "无法续局：{path} 是另一局的钥匙文件",
        "Cannot resume: {path} is the key of another match",
    ),
    "refuse_record": (
        "無法續局：{path} 的記錄驗證唔到（牌局、規則或者設定不符）",
        "无法续局：{path} 的记录验证不了（牌局、规则或者设定不符）",
        "Cannot resume: the record in {path} does not verify",
    ),
    "err_missing": ("找不到資料夾", "找不到文件夹", "no such folder"),
    "err_no_file": ("找不到檔案", "找不到文件", "no such file"),
    "err_denied": ("沒有權限", "没有权限", "permission denied"),
    "err_full": ("磁碟已滿", "磁盘已满", "the disk is full"),
    "err_read_only": ("唯讀磁碟", "只读磁盘", "read-only disk"),
    "err_is_dir": ("這是一個資料夾", "这是一个文件夹", "that is a folder"),
    "err_not_dir": (
        "路徑中有檔案不是資料夾",
        "路径中有文件不是文件夹",
        "a part of the path is not a folder",
    ),
    "err_other": ("系統錯誤 {n}", "系统错误 {n}", "system error {n}"),
    "seconds": ("{n}秒", "{n}秒", "{n}s"),
    "shanten": ("向聽數", "向听数", "Shanten"),
    "ready": ("叫糊", "听牌", "Ready"),
    "complete": ("食糊", "和牌", "Complete"),
    "waits": ("等", "听", "Waits"),
    "useful": ("有效牌", "有效牌", "Useful tiles"),
    "left": ("剩{n}", "剩{n}", "{n} left"),
    "fan": ("{n}番", "{n}番", "{n} fan"),
    "no_win": ("不夠番", "不够番", "below minimum"),
    "limit": ("爆棚", "爆棚", "limit"),
    "on_discard": ("食", "食", "on a discard"),
    "self_drawn": ("自摸", "自摸", "self-drawn"),
    "advice": ("建議", "建议", "Suggestion"),
    "pay_self_drawn": (
        "{winner} 自摸 {fan}：三家都付",
        "{winner} 自摸 {fan}：三家都付",
        "{winner} self-drawn, {fan}: the other three pay",
    ),
    "pay_discard": (
        "{payer} 出銃 → {winner} {fan}",
        "{payer} 出铳 → {winner} {fan}",
        "{payer} fed {winner}, {fan}",
    ),
    "pay_robbed": (
        "{winner} 搶{payer}的槓 {fan}（{payer} 當出銃）",
        "{winner} 抢{payer}的杠 {fan}（{payer} 当出铳）",
        "{winner} robbed the kong of {payer}, {fan} ({payer} pays as the feeder)",
    ),
    "pay_full_gun": ("（全銃，{n}份）", "（全铳，{n}份）", " (full gun: {n} shares)"),
    "pay_half_gun": (
        "（半銃：出銃者付兩份，其餘各一份）",
        "（半铳：出铳者付两份，其余各一份）",
        " (half gun: the feeder pays two shares, the others one each)",
    ),
    "pay_kong_feeder": (
        "{who} 出槓，包自摸",
        "{who} 出杠，包自摸",
        "{who} fed the kong and pays for all",
    ),
    "pay_liable": ("{who} 包牌", "{who} 包牌", "{who} is liable and pays for the others"),
    "pay_false_win": ("{who} 詐糊", "{who} 诈胡", "{who} declared a false win"),
    "not_now": ("現在不能這樣做", "现在不能这样做", "that is not possible now"),
    "internal_error": (
        "程式出錯（詳情在紀錄中）— s 儲存",
        "程序出错（详情在日志中）— s 保存",
        "internal error (details in the log) — s saves",
    ),
    "list_sep": ("，", "，", ", "),
    "goal": ("目標", "目标", "Aim"),
    "goal_away": ("差{n}步", "差{n}步", "{n} tiles from ready"),
    "goal_fan": (
        "可達 食 {d}番 / 自摸 {s}番",
        "可达 食 {d}番 / 自摸 {s}番",
        "worth {d} fan on a discard, {s} self-drawn",
    ),
    "any_hand": ("任何糊", "任何胡", "any winning hand"),
    "value_pung": ("{t}刻", "{t}刻", "{t} pung"),
    "danger": ("放銃風險", "放铳风险", "Risk of feeding a win"),
    "danger_0": ("安全", "安全", "safe"),
    "danger_1": ("低", "低", "low"),
    "danger_2": ("中", "中", "medium"),
    "danger_3": ("高", "高", "high"),
    "looks_ready": ("{who}似已叫糊", "{who}似已听牌", "{who} looks ready"),
    "liable": ("小心包牌", "小心包牌", "could make you pay for a limit hand"),
    "slower_safe": ("慢{n}步，但較安全", "慢{n}步，但较安全", "{n} step slower, but safer"),
    "slower_value": ("慢{n}步，為更多番", "慢{n}步，为更多番", "{n} step slower, for more fan"),
    "debug_trace": ("機械人紀錄", "机器人记录", "Bot trace"),
    "flush_of": ("{name}（{suit}）", "{name}（{suit}）", "{name} ({suit})"),
    "suit_m": ("萬子", "万子", "characters"),
    "suit_p": ("筒子", "筒子", "dots"),
    "suit_s": ("索子", "索子", "bamboo"),
    "hand_over": ("本局完", "本局完", "Hand over"),
    "draw_game": ("流局", "流局", "Drawn hand"),
    "payments": ("找數", "找数", "Payments"),
    "totals": ("累計", "累计", "Totals"),
    "next_hand": ("Enter 下一局", "Enter 下一局", "Enter: next hand"),
    "match_over": ("全場完", "全场完", "Match over"),
    "standings": ("排名", "排名", "Standings"),
    "save_record": (
        "s 儲存牌譜（hkmj replay 可重播）",
        "s 保存牌谱（hkmj replay 可重播）",
        "s saves the record (hkmj replay shows it again)",
    ),
    "history": ("每局記錄", "每局记录", "Hand history"),
    "close": ("Esc 關閉", "Esc 关闭", "Esc: close"),
    "quit_confirm": (
        "再按 q 離開（未儲存的進度會失去；s 儲存）",
        "再按 q 离开（未保存的进度会丢失；s 保存）",
        "Press q again to quit (unsaved progress is lost; s saves)",
    ),
    "replay": ("重播", "重播", "Replay"),
    "replay_keys": (
        "→ 下一步  ← 上一步  Home/End 首尾  q 離開",
        "→ 下一步  ← 上一步  Home/End 首尾  q 离开",
        "→ next  ← back  Home/End first/last  q quit",
    ),
}

_LANG_INDEX = {"zh-Hant": 0, "zh-Hans": 1, "en": 2}
_RELATIONS = (
    ("自己", "自己", "you"),
    ("下家", "下家", "right"),
    ("對家", "对家", "across"),
    ("上家", "上家", "left"),
)


_OS_ERRORS = {
    errno.ENOENT: "err_missing",
    errno.EACCES: "err_denied",
    errno.EPERM: "err_denied",
    errno.ENOSPC: "err_full",
    errno.EROFS: "err_read_only",
    errno.EISDIR: "err_is_dir",
    errno.ENOTDIR: "err_not_dir",
}


def os_error_text(lang: str, exc: OSError) -> str:
    """Why a file could not be written, in ``lang`` (never the system's English ``strerror``)."""
    return errno_text(lang, exc.errno)


def errno_text(lang: str, number: int | None) -> str:
    """An operating-system error ``number`` in ``lang``."""
    key = _OS_ERRORS.get(number or 0)
    if key is None:
        return tr(lang, "err_other", n=number if number is not None else "?")
    return tr(lang, key)


def save_refusal(lang: str, kind: str, path: str, line: int | None, number: int | None) -> str:
    """Why a save cannot be resumed (a :class:`~hkmahjong.cli.tui.save.SaveError`'s ``kind``),
    in ``lang``: the file and, for an edited record, its first changed line."""
    if kind == "changed" and line is not None:
        return tr(lang, "refuse_changed_line", path=path, line=line)
    if kind == "unreadable":  # reading: a missing name is the file itself, not a folder
        why = tr(lang, "err_no_file") if number == errno.ENOENT else errno_text(lang, number)
        return tr(lang, "refuse_unreadable", path=path, why=why)
    return tr(lang, f"refuse_{kind}", path=path)


def tr(lang: str, key: str, **fmt: object) -> str:
    """The screen text ``key`` in ``lang``, formatted with ``fmt``."""
    text = _WORDS[key][_LANG_INDEX.get(lang, 0)]
    return text.format(**fmt) if fmt else text


def relation(offset: int, lang: str) -> str:
    """上家 / 對家 / 下家 for a seat ``offset`` places after you in play order."""
    return _RELATIONS[offset % 4][_LANG_INDEX.get(lang, 0)]
