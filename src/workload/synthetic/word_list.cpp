// The word list behind synthetic prompts: common English words and two-character Chinese words
// (written for llmperf). Synthetic text draws from both, so that it exercises a tokenizer the way
// mixed real prompts do.
#include "workload/synthetic/word_list.h"

#include <iterator>

namespace llmperf {
namespace {

constexpr std::string_view kEnglish[] = {
    "time",       "year",       "people",      "way",           "day",           "man",
    "thing",      "woman",      "life",        "child",         "world",         "school",
    "state",      "family",     "student",     "group",         "country",       "problem",
    "hand",       "part",       "place",       "case",          "week",          "company",
    "system",     "program",    "question",    "work",          "government",    "number",
    "night",      "point",      "home",        "water",         "room",          "mother",
    "area",       "money",      "story",       "fact",          "month",         "lot",
    "right",      "study",      "book",        "eye",           "job",           "word",
    "business",   "issue",      "side",        "kind",          "head",          "house",
    "service",    "friend",     "father",      "power",         "hour",          "game",
    "line",       "end",        "member",      "law",           "car",           "city",
    "community",  "name",       "president",   "team",          "minute",        "idea",
    "kid",        "body",       "information", "back",          "parent",        "face",
    "others",     "level",      "office",      "door",          "health",        "person",
    "art",        "war",        "history",     "party",         "result",        "change",
    "morning",    "reason",     "research",    "girl",          "guy",           "moment",
    "air",        "teacher",    "force",       "education",     "foot",          "boy",
    "age",        "policy",     "music",       "market",        "sense",         "nation",
    "plan",       "college",    "interest",    "death",         "experience",    "effect",
    "class",      "control",    "care",        "field",         "development",   "role",
    "effort",     "rate",       "heart",       "drug",          "show",          "leader",
    "light",      "voice",      "wife",        "police",        "mind",          "price",
    "report",     "decision",   "son",         "view",          "relationship",  "town",
    "road",       "arm",        "difference",  "value",         "building",      "action",
    "model",      "season",     "society",     "tax",           "director",      "position",
    "player",     "record",     "paper",       "space",         "ground",        "form",
    "event",      "official",   "matter",      "center",        "couple",        "site",
    "project",    "activity",   "star",        "table",         "need",          "court",
    "oil",        "situation",  "cost",        "industry",      "figure",        "street",
    "image",      "phone",      "data",        "picture",       "practice",      "piece",
    "land",       "product",    "doctor",      "wall",          "patient",       "worker",
    "news",       "test",       "movie",       "north",         "love",          "support",
    "technology", "step",       "baby",        "computer",      "type",          "attention",
    "film",       "tree",       "source",      "organization",  "hair",          "window",
    "evidence",   "population", "truth",       "song",          "energy",        "river",
    "garden",     "bridge",     "mountain",    "island",        "ocean",         "forest",
    "valley",     "desert",     "village",     "harbor",        "castle",        "engine",
    "signal",     "network",    "server",      "client",        "request",       "token",
    "memory",     "cache",      "kernel",      "thread",        "process",       "socket",
    "packet",     "buffer",     "stream",      "parser",        "compiler",      "library",
    "function",   "variable",   "constant",    "pointer",       "vector",        "matrix",
    "tensor",     "gradient",   "weight",      "batch",         "layer",         "neuron",
    "prompt",     "answer",     "reply",       "letter",        "poem",          "novel",
    "chapter",    "theory",     "method",      "sample",        "average",       "median",
    "quick",      "slow",       "bright",      "dark",          "warm",          "cold",
    "early",      "late",       "simple",      "complex",       "careful",       "gentle",
    "honest",     "quiet",      "rapid",       "steady",        "strong",        "tiny",
    "vast",       "ancient",    "modern",      "rural",         "urban",         "global",
    "local",      "public",     "private",     "happy",         "calm",          "brave",
    "clever",     "eager",      "fair",        "proud",         "wise",          "young",
    "old",        "new",        "good",        "great",         "small",         "large",
    "long",       "short",      "high",        "low",           "clear",         "free",
    "full",       "real",       "true",        "whole",         "common",        "general",
    "special",    "recent",     "final",       "natural",       "human",         "social",
    "political",  "economic",   "national",    "international", "physical",      "financial",
    "medical",    "legal",      "personal",    "nuclear",       "environmental", "democratic",
    "military",   "cultural",   "green",       "blue",          "red",           "white",
    "black",      "silver",     "golden",      "wooden",        "always",        "often",
    "rarely",     "never",      "soon",        "later",         "today",         "tomorrow",
    "together",   "almost",     "quite",       "rather",        "really",        "simply",
    "nearly",     "maybe",      "perhaps",     "indeed",        "still",         "already",
    "again",      "once",       "twice",       "run",           "walk",          "read",
    "write",      "speak",      "listen",      "think",         "learn",         "teach",
    "build",      "grow",       "move",        "play",          "sing",          "dance",
    "paint",      "cook",       "drive",       "travel",        "visit",         "watch",
    "follow",     "lead",       "carry",       "bring",         "send",          "receive",
    "open",       "close",      "begin",       "finish",        "create",        "design",
    "measure",    "compare",    "explain",     "describe",      "discover",      "improve",
    "increase",   "reduce",     "protect",     "provide",       "prepare",       "produce",
    "remember",   "forget",     "believe",     "understand",    "consider",      "decide",
    "develop",
};

constexpr std::string_view kChinese[] = {
    "时间", "世界", "国家", "城市", "学校", "老师", "学生", "朋友", "家庭", "工作", "公司", "问题",
    "方法", "历史", "文化", "经济", "社会", "科学", "技术", "研究", "发展", "环境", "自然", "生活",
    "健康", "音乐", "电影", "书籍", "语言", "文字", "数据", "系统", "网络", "计算", "模型", "算法",
    "服务", "客户", "请求", "响应", "延迟", "吞吐", "速度", "内存", "缓存", "线程", "进程", "分析",
    "设计", "测试", "结果", "报告", "市场", "价格", "产品", "质量", "安全", "政策", "教育", "医院",
    "医生", "病人", "春天", "夏天", "秋天", "冬天", "早上", "晚上", "今天", "明天", "山水", "河流",
    "海洋", "森林", "花园", "道路", "桥梁", "汽车", "火车", "飞机", "天气", "阳光", "月亮", "星星",
    "故事", "诗歌", "小说", "思想", "理论", "实验", "观察", "经验", "能力", "机会", "目标", "计划",
    "未来", "过去", "现在", "美丽", "安静", "快乐", "重要", "简单", "复杂", "容易", "困难", "普通",
    "特别", "新鲜", "传统", "现代", "全球", "地方", "学习", "思考", "讨论", "解释", "描述", "比较",
    "改进", "提高", "减少", "保护", "创造", "建设", "旅行", "阅读", "写作", "说话", "听见", "看见",
    "理解", "相信", "记得", "开始", "结束", "继续", "发现", "选择", "准备", "帮助", "支持", "参加",
    "组织", "管理", "合作", "交流", "信息", "知识", "智慧", "资源", "能源", "材料", "工程", "结构",
};

}  // namespace

std::span<const std::string_view> english_words() { return kEnglish; }
std::span<const std::string_view> chinese_words() { return kChinese; }

void append_random_words(std::mt19937_64& rng, int64_t words, int64_t mixed_words,
                         std::string& out) {
  std::uniform_int_distribution<size_t> english(0, std::size(kEnglish) - 1);
  std::uniform_int_distribution<size_t> chinese(0, std::size(kChinese) - 1);
  std::uniform_int_distribution<int> sentence(8, 15);
  std::uniform_int_distribution<int> fifth(0, 4);
  int left_in_sentence = sentence(rng);
  for (int64_t i = 0; i < words; ++i) {
    out += ' ';
    out += (i < mixed_words && fifth(rng) == 0) ? kChinese[chinese(rng)] : kEnglish[english(rng)];
    if (--left_in_sentence == 0) {
      out += '.';
      left_in_sentence = sentence(rng);
    }
  }
}

}  // namespace llmperf
