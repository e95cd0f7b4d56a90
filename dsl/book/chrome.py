"""The words a book prints around the spec's own text (headings, labels, table headers, fixed sentences), in the
script the spec is written in (`language`). The templates and the book model write them in Simplified Chinese;
a script's table gives each its spelling there, and a word a table lacks is spelled the same."""

from __future__ import annotations

SIMPLIFIED: dict[str, str] = {}

TRADITIONAL = {
    "全部规则": "全部規則", "对照": "對照", "实现说明": "實現說明", "基于": "基於", "输家": "輸家", "语言": "語言",
    "不计": "不計", "与默认不同": "與默認不同", "出处": "出處", "别名": "別名", "只计最大": "只計最大",
    "合计": "合計", "实付": "實付", "封顶": "封頂", "小计": "小計", "无效": "無效", "牌组": "牌組", "番种": "番種",
    "结果": "結果", "被不计": "被不計", "规则": "規則", "规则原文": "規則原文", "规则对照": "規則對照",
    "说明": "說明", "读法": "讀法", "输家番": "輸家番", "选项": "選項", "选项与预设": "選項與預設", "金额": "金額",
    "门": "門", "预期": "預期", "预设": "預設", "麻将规则": "麻將規則", "默认": "默認", "计番原则": "計番原則",
    "依据": "依據", "准备": "準備", "连庄与轮庄": "連莊與輪莊", "计分与结算": "計分與結算", "罚则": "罰則",
    "术语": "術語", "条件": "條件", "点炮": "點炮", "开": "開", "关": "關",
}

SCRIPTS = {"zh-Hans": SIMPLIFIED, "zh-Hant": TRADITIONAL}


def word(language: str, simplified: str) -> str:
    """A chrome word, written in Simplified Chinese, as a book in `language` prints it."""
    return SCRIPTS[language].get(simplified, simplified)
