// --storage's URL: the schemes a shared study can live in, and a password that no message shows.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "study/storage_url.h"
#include "study/study_spec.h"

#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

std::string storage_error(const std::string& url) {
  try {
    parse_storage_url(url);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(StorageUrl, AcceptsPostgresqlAndAnSqliteFile) {
  const StorageUrl pg = parse_storage_url("postgresql://llmperf:s3cret@db.example:5432/tune");
  EXPECT_EQ(pg.scheme, "postgresql");
  EXPECT_EQ(pg.password, "s3cret");
  EXPECT_EQ(pg.url, "postgresql://llmperf:s3cret@db.example:5432/tune");
  EXPECT_EQ(pg.redacted, "postgresql://llmperf:***@db.example:5432/tune");
  EXPECT_FALSE(pg.sqlite());

  const StorageUrl driver = parse_storage_url("postgresql+psycopg2://u@/tune?host=/tmp/pg");
  EXPECT_EQ(driver.scheme, "postgresql+psycopg2");
  EXPECT_EQ(driver.password, "");
  EXPECT_EQ(driver.redacted, driver.url);

  const StorageUrl file = parse_storage_url("sqlite:///study.db");
  EXPECT_TRUE(file.sqlite());
  EXPECT_EQ(file.redacted, "sqlite:///study.db");
  EXPECT_TRUE(parse_storage_url("sqlite:////tmp/abs/study.db").sqlite());
}

TEST(StorageUrl, RefusesWhatCannotBeSharedSayingWhatToWrite) {
  EXPECT_NE(storage_error("postgres://u@h/db").find("write postgresql://"), std::string::npos);
  EXPECT_NE(storage_error("mysql://u@h/db").find("sqlite:///study.db"), std::string::npos);
  EXPECT_NE(storage_error("sqlite://").find("three slashes"), std::string::npos);
  EXPECT_NE(storage_error("sqlite:///:memory:").find("in-memory"), std::string::npos);
  EXPECT_NE(storage_error("sqlite:study.db").find("write sqlite://"), std::string::npos);
  EXPECT_NE(storage_error("").find("empty"), std::string::npos);
  EXPECT_NE(storage_error("study.db").find("PostgreSQL"), std::string::npos);
  EXPECT_NE(storage_error("sqlite:///a\nb").find("control character"), std::string::npos);
}

TEST(StorageUrl, NoErrorShowsThePassword) {
  for (const std::string url :
       {"postgres://u:hunter2@h/db", "mysql://u:hunter2@h/db", "postgresql:u:hunter2@h",
        "postgresql://u:hunter2@h/db\n", "mysql://u@h/db?password=hunter2&sslmode=require"}) {
    const std::string error = storage_error(url);
    EXPECT_FALSE(error.empty()) << url;
    EXPECT_EQ(error.find("hunter2"), std::string::npos) << error;
  }
  // A password with a slash, as SQLAlchemy reads it (up to the first '@').
  EXPECT_EQ(parse_storage_url("postgresql://u:hun/ter2@h:5432/db").redacted,
            "postgresql://u:***@h:5432/db");
  EXPECT_EQ(parse_storage_url("postgresql://h:5432/db").redacted, "postgresql://h:5432/db");
  EXPECT_EQ(parse_storage_url("postgresql://u@/db?host=/tmp/pg").redacted,
            "postgresql://u@/db?host=/tmp/pg");
  EXPECT_EQ(parse_storage_url("postgresql://u@h/db?password=hunter2&sslmode=require").redacted,
            "postgresql://u@h/db?password=***&sslmode=require");
}

TEST(StorageUrl, RedactsEveryUrlAndThePasswordAloneInRunningText) {
  EXPECT_EQ(redact_storage_text("(psycopg2.OperationalError) connection to "
                                "'postgresql://a:b%40c@h:1/d' failed; again postgresql://x:y@z/w"),
            "(psycopg2.OperationalError) connection to 'postgresql://a:***@h:1/d' failed; again "
            "postgresql://x:***@z/w");
  // The password alone (a driver quoting it), as written and percent-decoded.
  EXPECT_EQ(redact_storage_text("password b@c rejected, b%40c too", "b%40c"),
            "password *** rejected, *** too");
  EXPECT_EQ(redact_storage_text("PASSWORD=abc host=h"), "PASSWORD=*** host=h");
  EXPECT_EQ(redact_storage_text("no url here"), "no url here");
  EXPECT_EQ(redact_storage_text("http://u@host/x"), "http://u@host/x");  // no password
}

TEST(StorageUrl, StudyJsonKeepsTheUrlWithoutItsPassword) {
  StudySpec spec;
  spec.serve = "s {port}";
  spec.storage = "postgresql://u:hunter2@h/db";
  spec.study_name = "qwen-tp";
  const nlohmann::json json = to_json(spec);
  EXPECT_EQ(json.at("storage"), "postgresql://u:***@h/db");
  EXPECT_EQ(json.dump().find("hunter2"), std::string::npos);
  const StudySpec back = study_spec_from_json(json);
  EXPECT_EQ(back.study_name, "qwen-tp");
  EXPECT_EQ(parse_storage_url(back.storage).password, kRedactedPassword);
  // A study without --storage writes the study.json it did before.
  spec.storage.clear();
  spec.study_name.clear();
  EXPECT_FALSE(to_json(spec).contains("storage"));
  EXPECT_FALSE(to_json(spec).contains("study_name"));
}

TEST(StorageUrl, StudyNamesArePrintable) {
  EXPECT_NO_THROW(check_study_name("qwen-7b_tp.2"));
  EXPECT_THROW(check_study_name(""), std::invalid_argument);
  EXPECT_THROW(check_study_name(std::string(129, 'a')), std::invalid_argument);
  EXPECT_THROW(check_study_name("a\nb"), std::invalid_argument);
}

}  // namespace
}  // namespace llmperf
